import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts.js';

/**
 * Every migration, in order. A static list (rather than a folder scan) works the same from
 * TypeScript sources under tsx/vitest and from the compiled dist/.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': m0001,
};
