import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onFirstUse } from '../../common/lazy.js';
import { loadConfig } from '../config.js';
import { migrateToLatest, openSqlite } from '../db/database.js';
import { createLogger } from '../log.js';
import { buildApp } from './app.js';

/** A module loaded on first use that cannot be loaded (docs/decisions.md "Process memory: modules on first use"). */
describe('a request whose module is missing', () => {
  it('a request whose module cannot be loaded is answered 500 and the log names the module', async () => {
    const lines: string[] = [];
    const database = openSqlite(':memory:');
    await migrateToLatest(database.db);
    const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'feeder-data-')) });
    const app = await buildApp({ config, database, log: createLogger({ logLevel: 'error' }, { write: (line: string) => void lines.push(line) }) });
    try {
      const load = onFirstUse('the test extractor (no-such-package)', () => import(join(tmpdir(), 'feeder-no-such-module.js')));
      app.get('/api/test-lazy', async () => load());
      const res = await app.inject('/api/test-lazy');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'Internal server error.', code: 'INTERNAL_ERROR' });
      const logged = lines.map((l) => JSON.parse(l) as { msg: string; err?: { message: string } });
      expect(logged.some((r) => r.err?.message.startsWith('Feeder could not load the test extractor (no-such-package): '))).toBe(true);
    } finally {
      await app.close();
      await database.destroy();
    }
  });
});
