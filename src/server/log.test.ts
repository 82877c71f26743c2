import { describe, expect, it } from 'vitest';
import { createLogger, writeRecord } from './log.js';
import { startMaintenance } from './maintenance.js';
import { WorkerPoolProcessor } from './refresh/document-pool.js';
import { createTestDatabase } from './test/dialects.js';

/** A logger as main.ts makes it, writing into `lines` instead of stdout. */
function capture(level = 'info') {
  const lines: string[] = [];
  const log = createLogger({ logLevel: level }, { write: (line: string) => void lines.push(line) });
  const records = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { log, lines, records };
}

describe('the one structured logger (log.ts)', () => {
  it('writes one JSON object per line with level, time and msg, and drops lines below LOG_LEVEL', () => {
    const { log, lines, records } = capture('info');
    log.child({ component: 'refresh' }).info({ feedId: 7 }, 'feed refresh failed');
    log.debug('not shown at info');
    log.error({ err: new Error('boom') }, 'maintenance failed');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.endsWith('\n')).toBe(true);
    const [first, second] = records();
    expect(first).toMatchObject({ level: 30, component: 'refresh', feedId: 7, msg: 'feed refresh failed' });
    expect(typeof first.time).toBe('number');
    expect(second).toMatchObject({ level: 50, msg: 'maintenance failed', err: { type: 'Error', message: 'boom' } });
  });

  it("a parse thread's log records come out as the process's JSON lines", async () => {
    const { log, records } = capture('info');
    // From TypeScript sources the pool starts the worker through tsx (document-pool.ts sourceWorker).
    const pool = new WorkerPoolProcessor(1, undefined, {}, (record) => writeRecord(log.child({ component: 'parse-thread' }), record));
    try {
      // An OPML job without its bytes fails inside the thread with a TypeError, not a ReaderError or AppError: a bug,
      // so the thread logs it.
      await expect(pool.run('opml', {} as never)).rejects.toThrow();
    } finally {
      await pool.close();
    }
    const line = records().find((r) => r.msg === 'parse job failed unexpectedly');
    expect(line).toMatchObject({ level: 50, component: 'parse-thread', kind: 'opml' });
    expect(String(line?.err)).toMatch(/TypeError/);
  });

  it('the maintenance job logs JSON lines (a failure at error level)', async () => {
    const { log, records } = capture('info');
    const database = await createTestDatabase('sqlite');
    await database.destroy(); // every query now fails
    const stop = startMaintenance(database, log.child({ component: 'maintenance' }), { retentionDays: 30 });
    await stop();
    expect(records()).toEqual([expect.objectContaining({ level: 50, component: 'maintenance', msg: 'maintenance failed' })]);
  });
});
