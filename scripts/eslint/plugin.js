// Feeder's own ESLint rules (eslint.config.js registers them as `feeder/*`).
//
// feeder/no-cycle: import cycles that pass through at least one type-only import (`import type`, `export type … from`).
// import-x/no-cycle finds cycles of runtime imports but skips type-only ones, and docs/ARCHITECTURE.md "Layers"
// forbids those too: a type loop still ties two modules together (http/app.ts ↔ every *.routes.ts), so neither can
// move or be read without the other. Cycles made of runtime imports alone are left to import-x, so nothing is
// reported twice.
//
// The import graph is built once per process from the files on disk with TypeScript's own parser and module
// resolution (each file with the tsconfig that type-checks it), following only the repository's own sources.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WEB = path.join(ROOT, 'src', 'web') + path.sep;

const optionsCache = new Map();
function compilerOptionsFor(file) {
  const config = path.join(ROOT, file.startsWith(WEB) ? 'tsconfig.web.json' : 'tsconfig.json');
  let options = optionsCache.get(config);
  if (!options) {
    const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} });
    options = parsed?.options ?? { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    optionsCache.set(config, options);
  }
  return options;
}

/** @typedef {{ target: string, typeOnly: boolean, specifier: string, node?: unknown }} Edge */

/** Import declarations of one source text: static imports and re-exports, and `import()` with a literal. */
function importsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  /** @type {{ specifier: string, typeOnly: boolean, pos: number }[]} */
  const found = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const bindings = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name && !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly, pos: statement.getStart(source) });
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly || (!!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly, pos: statement.getStart(source) });
    }
  }
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false, pos: node.getStart(source) });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

function resolve(specifier, fromFile) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return undefined; // packages and node: built-ins
  const resolved = ts.resolveModuleName(specifier, fromFile, compilerOptionsFor(fromFile), ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport) return undefined;
  const file = path.resolve(resolved.resolvedFileName);
  if (!file.startsWith(ROOT + path.sep) || file.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
  return file;
}

/** file → its edges; files read from disk on first need, once per process. */
const graph = new Map();
function edgesOf(file) {
  let edges = graph.get(file);
  if (edges) return edges;
  edges = [];
  graph.set(file, edges);
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return edges;
  }
  for (const { specifier, typeOnly } of importsOf(file, text)) {
    const target = resolve(specifier, file);
    if (target) edges.push({ target, typeOnly, specifier });
  }
  return edges;
}

/** Shortest path (as a list of files) from `start` to `goal`, following edges that `follow` accepts. */
function findPath(start, goal, follow) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    if (file === goal) {
      const route = [];
      for (let at = file; at !== null; at = previous.get(at)) route.unshift(at);
      return route;
    }
    for (const edge of edgesOf(file)) {
      if (!follow(edge) || previous.has(edge.target)) continue;
      previous.set(edge.target, file);
      queue.push(edge.target);
    }
  }
  return undefined;
}

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles that run through type-only imports (import-x/no-cycle skips those).' },
    schema: [],
    messages: { cycle: 'Import cycle through a type-only import: {{route}}' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    if (!file.startsWith(ROOT + path.sep)) return {};
    const sourceCode = context.sourceCode;
    const own = importsOf(file, sourceCode.text);
    // This file's current text, not what is on disk, is its side of the graph.
    graph.set(
      file,
      own.flatMap(({ specifier, typeOnly }) => {
        const target = resolve(specifier, file);
        return target ? [{ target, typeOnly, specifier }] : [];
      }),
    );
    const name = (f) => path.relative(ROOT, f);
    return {
      'Program:exit'() {
        for (const { specifier, typeOnly, pos } of own) {
          const target = resolve(specifier, file);
          if (!target || target === file) continue;
          // A cycle of runtime imports only is import-x/no-cycle's to report.
          if (!typeOnly && findPath(target, file, (edge) => !edge.typeOnly)) continue;
          const route = findPath(target, file, () => true);
          if (!route) continue;
          context.report({
            loc: sourceCode.getLocFromIndex(pos),
            messageId: 'cycle',
            data: { route: [file, ...route].map(name).join(' → ') },
          });
        }
      },
    };
  },
};

// feeder/comment-references: comments point to the project's own docs/ or name a specification document and section
// (`dashboard.md §5`, RFC 4287 §2); never to a path outside the repository, to the team's design notes or to an
// issue number, none of which a reader of the repository can open.
const OUTSIDE = [
  { pattern: /\bdesign\.md\b/, what: 'design.md (outside the repository)' },
  { pattern: /(?:\.\.\/)+shared\//, what: 'a path outside the repository' },
  { pattern: /\bissues? \d/i, what: 'an issue number' },
];

const commentReferences = {
  meta: {
    type: 'suggestion',
    docs: { description: "Comments cite the project's own docs/ or a specification section, not design.md, outside paths or issue numbers." },
    schema: [],
    messages: { outside: 'Comment cites {{what}}: point to docs/ or name the specification document and section instead.' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const hit = OUTSIDE.find(({ pattern }) => pattern.test(comment.value));
          if (hit) context.report({ loc: comment.loc, messageId: 'outside', data: { what: hit.what } });
        }
      },
    };
  },
};

export default { meta: { name: 'eslint-plugin-feeder' }, rules: { 'no-cycle': noCycle, 'comment-references': commentReferences } };
