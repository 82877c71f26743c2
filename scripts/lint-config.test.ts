import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint configuration keeps the layers of docs/ARCHITECTURE.md "Layers": each deliberate break below must be
 * reported by the rule that owns it, and a clean file must not be. Sources are linted as virtual files at paths
 * inside the real tree (their imports resolve to real files); the cycles are fixture files on disk
 * (scripts/eslint/fixtures/, left out of the normal lint). Type information is switched off here: these rules
 * work on resolved imports, and the type-aware rules are typescript-eslint's own.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const rel = (...parts: string[]) => path.join(root, ...parts);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: rel('eslint.config.js'),
    overrideConfig: [{ files: ['**/*.{ts,tsx}'], ...tseslint.configs.disableTypeChecked }],
    ignore: false,
    cache: false,
  });
});

async function lint(file: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: rel(file) });
  return result.messages;
}

async function lintFile(file: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintFiles([rel(file)]);
  return result.messages;
}

const rules = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

/** A source file (not a test, not index.ts) in `dir`, so the cases survive files being renamed or split. */
function someModule(dir: string, matches: (name: string) => boolean = () => true): string {
  const name = readdirSync(rel(dir)).find((f) => /\.tsx?$/.test(f) && !f.includes('.test.') && f !== 'index.ts' && matches(f) && existsSync(rel(dir, f)));
  if (!name) throw new Error(`no module in ${dir}`);
  return name.replace(/\.tsx?$/, '.js');
}

function someRepository(): { area: string; file: string } {
  for (const area of readdirSync(rel('src/server'))) {
    const dir = path.join('src/server', area);
    if (!existsSync(rel(dir)) || !readdirSync(rel(dir)).some((f) => f.endsWith('.repository.ts'))) continue;
    return { area, file: someModule(dir, (f) => f.endsWith('.repository.ts')) };
  }
  throw new Error('no repository in src/server');
}

describe('eslint.config.js', () => {
  it('reports a runtime import cycle', async () => {
    const messages = await lintFile('scripts/eslint/fixtures/cycle/a.ts');
    expect(rules(messages)).toContain('import-x/no-cycle');
  });

  it('reports a cycle that runs through a type-only import', async () => {
    const messages = await lintFile('scripts/eslint/fixtures/type-cycle/routes.ts');
    expect(rules(messages)).toEqual(['feeder/no-cycle']);
    expect(messages[0].message).toContain('type-cycle/routes.ts → scripts/eslint/fixtures/type-cycle/app.ts');
  });

  it('reports a route importing a repository', async () => {
    const { area, file } = someRepository();
    const messages = await lint(`src/server/${area}/lint-fixture.routes.ts`, `import * as repository from './${file}';\n\nexport const r = repository;\n`);
    expect(rules(messages)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0].message).toContain('Routes call services, never repositories');
  });

  it('reports the reader importing another server area', async () => {
    const messages = await lint('src/server/reader/lint-fixture.ts', `import { loadConfig } from '../config.js';\n\nexport const c = loadConfig;\n`);
    expect(rules(messages)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0].message).toContain('reader pipeline is pure');
  });

  it('reports common importing web or server', async () => {
    const web = await lint('src/common/lint-fixture.ts', `import * as api from '../web/lib/${someModule('src/web/lib')}';\n\nexport const a = api;\n`);
    expect(rules(web)).toContain('import-x/no-restricted-paths');
    const server = await lint('src/common/lint-fixture.ts', `import { loadConfig } from '../server/config.js';\n\nexport const c = loadConfig;\n`);
    expect(rules(server)).toContain('import-x/no-restricted-paths');
  });

  it('reports web importing server and server importing web', async () => {
    const web = await lint('src/web/lib/lint-fixture.ts', `import { loadConfig } from '../../server/config.js';\n\nexport const c = loadConfig;\n`);
    expect(rules(web)).toContain('import-x/no-restricted-paths');
    const server = await lint('src/server/lint-fixture.ts', `import * as api from '../web/lib/${someModule('src/web/lib')}';\n\nexport const a = api;\n`);
    expect(rules(server)).toContain('import-x/no-restricted-paths');
  });

  it('reports a deep import into another feature', async () => {
    const feeds = 'src/web/features/feeds';
    const messages = await lint('src/web/features/articles/lint-fixture.ts', `import * as deep from '../feeds/${someModule(feeds)}';\n\nexport const d = deep;\n`);
    expect(rules(messages)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0].message).toContain('public entry');
  });

  it('reports a shared component importing app/ or a feature', async () => {
    const app = await lint('src/web/components/LintFixture.tsx', `import * as app from '../app/${someModule('src/web/app')}';\n\nexport const a = app;\n`);
    expect(rules(app)).toEqual(['import-x/no-restricted-paths']);
    const feature = await lint(
      'src/web/components/LintFixture.tsx',
      `import * as f from '../features/feeds/${someModule('src/web/features/feeds')}';\n\nexport const a = f;\n`,
    );
    expect(rules(feature)).toEqual(['import-x/no-restricted-paths']);
  });

  it('reports a migration importing application code or a package other than kysely', async () => {
    const file = 'src/server/db/migrations/9999_lint_fixture.ts';
    const app = await lint(file, `import { loadConfig } from '../../config.js';\n\nexport const c = loadConfig;\n`);
    expect(rules(app)).toContain('import-x/no-restricted-paths');
    const pkg = await lint(file, `import { formatISO } from 'date-fns';\n\nexport const f = formatISO;\n`);
    expect(rules(pkg)).toEqual(['no-restricted-imports']);
  });

  it('reports a comment that cites design notes, a path outside the repository or an issue number', async () => {
    const file = 'src/server/lint-fixture.ts';
    for (const comment of ['// See design.md §4.', '/* as ../../shared/spec/x.md says */', '// Added in issue 5.']) {
      expect(rules(await lint(file, `${comment}\nexport const x = 1;\n`))).toEqual(['feeder/comment-references']);
    }
    expect(await lint(file, `// dashboard.md §5 and docs/decisions.md "Reading" (RFC 4287 §2; FreshRSS issue #2956).\nexport const x = 1;\n`)).toEqual([]);
  });

  it('passes a clean file: a migration on Kysely, a service on its repository, a feature on lib and its own files', async () => {
    const migration = await lint(
      'src/server/db/migrations/9999_lint_fixture.ts',
      `import { sql, type Kysely } from 'kysely';\n\nexport async function up(db: Kysely<unknown>): Promise<void> {\n  await sql\`SELECT 1\`.execute(db);\n}\n`,
    );
    expect(migration).toEqual([]);
    const { area, file } = someRepository();
    const service = await lint(`src/server/${area}/lint-fixture.service.ts`, `import * as repository from './${file}';\n\nexport const r = repository;\n`);
    expect(service).toEqual([]);
    const feature = await lint('src/web/features/articles/lint-fixture.ts', `import * as lib from '../../lib/${someModule('src/web/lib')}';\n\nexport const l = lib;\n`);
    expect(feature).toEqual([]);
  });
});
