import { hash, verify, type Algorithm } from '@node-rs/argon2';

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

export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly options: PasswordHashingOptions = DEFAULT_PASSWORD_HASHING) {}

  hash(password: string): Promise<string> {
    return hash(password, { ...this.options, algorithm: ARGON2ID });
  }

  /** False for a wrong password and for a stored hash that is not a valid argon2 string. */
  async verify(passwordHash: string, password: string): Promise<boolean> {
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
