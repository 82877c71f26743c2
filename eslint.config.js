// ESLint 9 flat config: type-aware typescript-eslint, the layer rules of docs/ARCHITECTURE.md "Layers", React's
// hook rules for the web app, and eslint-config-prettier last so formatting is Prettier's alone.
// `npm run lint` runs it after both type checks and before `prettier --check` (see package.json).
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import feeder from './scripts/eslint/plugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const features = readdirSync(new URL('./src/web/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The layers (docs/ARCHITECTURE.md "Layers"). Paths are relative to the repository; `except` is relative to `from`.
 * import-x/no-restricted-paths checks resolved files, so `../x.js` and `./x.js` specifiers alike.
 */
const zones = [
  {
    target: './src/common',
    from: ['./src/server', './src/web'],
    message: 'src/common is shared by server and web and imports neither.',
  },
  { target: './src/web', from: './src/server', message: 'The web app never imports server code; shared shapes live in src/common.' },
  { target: './src/server', from: './src/web', message: 'The server never imports web code; shared shapes live in src/common.' },
  {
    target: './src/server/reader',
    from: './src/server',
    except: ['./reader'],
    message: 'The reader pipeline is pure: it imports only reader/, src/common, node and packages, never another server area.',
  },
  {
    target: './src/server/db/migrations',
    from: ['./src', './scripts', './bench', './e2e'],
    except: ['./server/db/migrations'],
    message: 'Migrations are frozen: they import Kysely and each other, nothing of the application.',
  },
  {
    target: './src/server/**/*.routes.ts',
    from: './src/server/**/*.repository.ts',
    message: 'Routes call services, never repositories (routes → services → repositories → db).',
  },
  {
    target: './src/server/**/*.service.ts',
    from: './src/server/**/*.routes.ts',
    message: 'Services never import routes (routes → services → repositories → db).',
  },
  {
    target: './src/server/**/*.repository.ts',
    from: ['./src/server/**/*.service.ts', './src/server/**/*.routes.ts'],
    message: 'Repositories never import services or routes (routes → services → repositories → db).',
  },
  {
    target: ['./src/web/components', './src/web/lib'],
    from: ['./src/web/features', './src/web/app'],
    message: 'Shared components and lib sit below features and app/: they never import them.',
  },
  // One zone per feature: it may import its own files and another feature's public entry (index.ts), nothing deeper.
  ...features.map((feature) => ({
    target: `./src/web/features/${feature}`,
    from: './src/web/features',
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'Features import each other only through the other feature’s public entry, src/web/features/<name>/index.ts.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'data/',
      'node_modules/',
      'coverage/',
      'tmp/',
      'src/web/public/',
      '**/testdata/',
      // Sources that break the rules on purpose, linted only by scripts/lint-config.test.ts.
      'scripts/eslint/fixtures/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: root,
      },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, feeder },
    settings: {
      // import-x reads the files it follows (for no-cycle) only with these extensions and this parser.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'tsconfig.web.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      // Import hygiene and the layers.
      'import-x/no-restricted-paths': ['error', { zones }],
      // Cycles through runtime imports (import-x); feeder/no-cycle below also follows `import type`, which import-x
      // skips: a type-only loop still ties two modules together (http/app.ts ↔ every *.routes.ts).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'feeder/no-cycle': 'error',
      // Comments cite docs/ or a specification section (docs/ARCHITECTURE.md "Tooling").
      'feeder/comment-references': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-useless-path-segments': 'error',
      'import-x/no-extraneous-dependencies': 'error',

      // Non-breaking and thin spaces in UI text, strings and comments are typography ("§ 5", "z. B."); the rule
      // is for stray whitespace in code, where it stays on.
      'no-irregular-whitespace': ['error', { skipStrings: true, skipTemplates: true, skipRegExps: true, skipJSXText: true, skipComments: true }],

      // Bugs the type checker alone does not catch stay on at their recommended settings: no-floating-promises,
      // no-misused-promises, await-thenable, only-throw-error, no-unnecessary-type-assertion, restrict-plus-operands,
      // restrict-template-expressions, no-base-to-string, no-for-in-array, no-implied-eval, no-explicit-any.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],

      // Deliberately off (noise over value in this code base):
      // - no-unsafe-*: `any` enters only at JSON boundaries (fastify.inject().json(), JSON.parse of stored
      //   settings, feedsmith's loose output), which are validated by TypeBox or read by tests; flagging every
      //   member access there buries the findings that matter.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // - require-await: Fastify handlers and service methods are `async` so they always return a promise and a
      //   throw becomes a rejection, whether or not they await today.
      '@typescript-eslint/require-await': 'off',
      // - unbound-method: `expect(mock.fn)` and Fastify decorators passed as hooks (`onRequest: app.requireUser`)
      //   are methods that never use `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Plain JavaScript (bin/, scripts/*.mjs, bench/*.mjs, this file): no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    // JavaScript has no type-only imports, so import-x/no-cycle sees every cycle there.
    rules: { 'feeder/no-cycle': 'off' },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: {
      globals: { ...globals.browser },
      // The project service finds a file's nearest tsconfig.json, the root one, which leaves src/web to
      // tsconfig.web.json (Bundler resolution, DOM and Vite types): the web app names its project here.
      parserOptions: { projectService: false, project: './tsconfig.web.json', tsconfigRootDir: root },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The two classic hook rules. eslint-plugin-react-hooks 7's React Compiler rules (purity, refs,
      // set-state-in-effect, …) stay off: the app does not use the compiler and they flag working code.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // JSX handlers may be async: React ignores the returned promise, and each handler catches its own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Migrations are frozen (docs/ARCHITECTURE.md "Add a migration"): Kysely, node built-ins and each other only.
    files: ['src/server/db/migrations/**/*.ts'],
    rules: {
      // Kysely's documented form: a migration sees `Kysely<any>`, never today's table types, which would change it.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!kysely$|node:|\\./)',
              message: 'Migrations are frozen: they import Kysely (and node built-ins), nothing of the application or other packages.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'src/server/test/**', 'src/web/test/**', 'e2e/**', 'bench/**', 'scripts/**'],
    rules: {
      // Tests, benchmarks and scripts may use dev dependencies.
      'import-x/no-extraneous-dependencies': ['error', { devDependencies: true }],
    },
  },
  {
    files: ['*.config.{ts,js}', 'eslint.config.js'],
    rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: true }] },
  },
  prettier,
);
