import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../src/common/schemas/error-schema.js';
import { startBuiltServer, type BuiltServer } from '../src/server/test/built-server.js';
import { freePort } from '../src/server/test/wait.js';

/**
 * The build writes the API's schema modules as data (scripts/schemas-as-data.mjs; docs/decisions.md "Process memory:
 * the API's schemas as data"), so the server loads no TypeBox. These tests run on `npm run build`'s output.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = join(ROOT, 'src/common/schemas');
const BUILT = join(ROOT, 'dist/common/schemas');
/** Modules the script leaves as they are: the builders (no run-time importer) and the TypeBox-free error schema. */
const KEPT = new Set(['builders', 'error-schema']);
const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

beforeAll(() => {
  if (!existsSync(join(BUILT, 'common.js'))) throw new Error('These tests read the build: run `npm run build` first.');
});

describe('the schema modules in the build', () => {
  const names = readdirSync(SOURCES)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''));

  it.each(names.filter((n) => !KEPT.has(n)))('%s is its source’s schemas as data, importing nothing', async (name) => {
    const source = (await import(pathToFileURL(join(SOURCES, `${name}.ts`)).href)) as Record<string, unknown>;
    const built = (await import(pathToFileURL(join(BUILT, `${name}.js`)).href)) as Record<string, unknown>;
    const exported = Object.keys(source).filter((k) => typeof source[k] !== 'function');
    expect(exported.length).toBeGreaterThan(0);
    expect(Object.keys(built).sort()).toEqual(exported.sort());
    for (const key of exported) expect(built[key], `${name}.${key}`).toEqual(json(source[key]));
    expect(readFileSync(join(BUILT, `${name}.js`), 'utf8')).not.toMatch(/^\s*import\b/m);
  });

  it('ErrorSchema builds what TypeBox’s Type.Object builds', () => {
    const typebox = Type.Object(
      {
        message: Type.String({ description: 'What went wrong, in English, for people.' }),
        code: Type.String({ description: 'A stable machine-readable code.' }),
      },
      { description: 'Not found.', examples: [{ message: 'Feed not found.', code: 'FEED_NOT_FOUND' }] },
    );
    expect(json(ErrorSchema('Not found.', 'FEED_NOT_FOUND', 'Feed not found.'))).toEqual(json(typebox));
  });
});

describe.sequential('the built server without TypeBox', () => {
  let dataDir: string;
  let hook: string;
  let server: BuiltServer | null = null;
  let baseUrl: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'feeder-schemas-data-'));
    // Any import of TypeBox, at start or on a route's first request, fails with this hook.
    hook = join(dataDir, 'no-typebox.mjs');
    const resolver = `export async function resolve(specifier, context, next) {
  if (specifier === 'typebox' || specifier.startsWith('typebox/') || specifier.includes('/node_modules/typebox/')) throw new Error('TypeBox loaded: ' + specifier);
  return next(specifier, context);
}`;
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolver)}`)});\n`);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn' };
    server = await startBuiltServer(env, baseUrl, ['--import', pathToFileURL(hook).href], 20_000);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('the hook refuses TypeBox (so the test below can fail)', () => {
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, '--input-type=module', '-e', "await import('typebox')"], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('TypeBox loaded');
  });

  it('validates requests, serialises answers and serves the OpenAPI document', async () => {
    const bad = await fetch(`${baseUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 42 }) });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const publicBad = await fetch(`${baseUrl}/public-api/v1/authenticate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email": []}' });
    expect(publicBad.status).toBe(400);
    expect(await publicBad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const doc = await fetch(`${baseUrl}/public-api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    const openapi = (await doc.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths).length).toBeGreaterThanOrEqual(5);
    expect(JSON.stringify(openapi)).toContain('A stable machine-readable code.');
    expect(server?.child.exitCode).toBeNull();
    expect(server?.output.join('')).not.toContain('TypeBox loaded');
  });
});
