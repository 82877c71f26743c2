import type { Algorithm } from '@node-rs/argon2';
import { onFirstUse } from '../../common/lazy.js';

/** argon2id cost parameters; memoryCost in KiB. */
export interface PasswordHashingOptions {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 30 ms per hash on a current core. */
export const DEFAULT_PASSWORD_HASHING: PasswordHashingOptions = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/** Cheap parameters for tests only; never used by the server. */
export const TEST_PASSWORD_HASHING: PasswordHashingOptions = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id (a const enum, not importable under isolatedModules)

/**
 * The native hasher is loaded on the first sign-in, registration or password change, not at start (docs/decisions.md
 * "Process memory: modules on first use").
 */
const loadArgon2 = onFirstUse('the password hasher (@node-rs/argon2)', () => import('@node-rs/argon2'));

export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly options: PasswordHashingOptions = DEFAULT_PASSWORD_HASHING) {}

  async hash(password: string): Promise<string> {
    const { hash } = await loadArgon2();
    return hash(password, { ...this.options, algorithm: ARGON2ID });
  }

  /**
   * False for a wrong password and for a stored hash that is not a valid argon2 string (a hasher that cannot be
   * loaded is an error, not a wrong password).
   */
  async verify(passwordHash: string, password: string): Promise<boolean> {
    const { verify } = await loadArgon2();
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /**
   * Spends the same time as a real check when there is no account, so the answer time of login does not tell
   * whether an address is registered. The dummy hash uses the current parameters.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.dummy ??= this.hash('feeder-dummy-password-for-timing');
    await this.verify(await this.dummy, password);
    return false;
  }
}
