import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './constants.js';
import { LanguageSchema } from './schemas/accounts.js';

/**
 * The API contract has one source (docs/decisions.md "One API contract"): the type checker keeps the shapes in
 * step; these checks cover what it cannot see.
 */
const root = new URL('../', import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const importsOf = (source: string) => [...source.matchAll(/^(import|export)\b[^;]*?from '([^']+)'/gms)].map((m) => ({ kind: m[0], from: m[2] }));

describe('one API contract', () => {
  it('web forms take their length limits from src/common/limits.ts, not from numbers of their own', () => {
    const literal = files('web').filter((f) => /maxLength=\{\s*\d/.test(read(f)));
    expect(literal).toEqual([]);
  });

  it('src/common imports nothing of the server or the web app', () => {
    for (const file of files('common')) {
      for (const { from } of importsOf(read(file))) expect(from, relative(root, join(root, file))).not.toMatch(/(^|\/)(server|web)\//);
    }
  });

  it('what the web app loads at runtime from src/common carries no TypeBox (types only from the schemas)', () => {
    expect(importsOf(read('common/limits.ts'))).toEqual([]);
    for (const { kind } of importsOf(read('common/api.ts'))) expect(kind).toMatch(/^import type /);
    for (const file of files('web')) {
      for (const { kind, from } of importsOf(read(file))) {
        if (from === 'typebox' || from.includes('common/schemas/')) expect(kind, file).toMatch(/^import type /);
      }
    }
  });

  it('the language schema lists the languages of constants.ts', () => {
    expect(LanguageSchema.anyOf.map((s) => s.const)).toEqual([...LANGUAGES]);
  });
});
