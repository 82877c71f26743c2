import { Redis } from 'ioredis';

/**
 * The Redis of the tests: TEST_REDIS_URL (default the local one). When it cannot be reached, Redis tests are
 * skipped with a warning, unless CI=true or REQUIRE_REDIS=1, where that is a failure.
 */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const redisRequired = process.env.CI === 'true' || process.env.REQUIRE_REDIS === '1';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch (err) {
    if (redisRequired) throw new Error(`Redis is required for the tests but not reachable at ${TEST_REDIS_URL}: ${String(err)}`);
    console.warn(`[tests] Redis not reachable at ${TEST_REDIS_URL}; Redis tests are skipped`);
    return false;
  } finally {
    probe.disconnect();
  }
}

export const HAVE_REDIS = await redisReachable();
