/**
 * Golden-file test over the fixture corpus in testdata/ (conventions in testdata/README.md): every fixture is
 * parsed and compared with its `.expected.json`. `UPDATE_GOLDEN=1` rewrites the expectations instead; review the
 * diff before committing, a golden file that enshrines a bug is worse than none.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ReaderError } from '../types.js';
import { parseFeed } from './index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'testdata');
const update = process.env.UPDATE_GOLDEN === '1';
const DEFAULT_URL = 'https://example.com/feed.xml';
/** The fetch time of every fixture, so clamped future dates do not depend on the day the tests run. */
const NOW = Date.UTC(2025, 0, 1);

/** Files in testdata/ that are not fixtures themselves. */
const isFixture = (name: string) => !name.endsWith('.expected.json') && !name.endsWith('.meta.json') && name !== 'README.md' && !name.endsWith('.mjs');

const fixtures = readdirSync(dir).filter(isFixture).sort();

function stem(name: string): string {
  return name.slice(0, name.lastIndexOf('.'));
}

function run(name: string): unknown {
  const metaPath = join(dir, `${stem(name)}.meta.json`);
  const meta = existsSync(metaPath) ? (JSON.parse(readFileSync(metaPath, 'utf8')) as { url?: string; contentType?: string }) : {};
  try {
    return parseFeed(readFileSync(join(dir, name)), {
      url: meta.url ?? DEFAULT_URL,
      contentType: meta.contentType,
      now: NOW,
    });
  } catch (error) {
    if (error instanceof ReaderError) return { error: error.code };
    throw error;
  }
}

describe('parse fixtures (golden files)', () => {
  it('has a corpus of at least 80 fixture feeds', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(80);
  });

  for (const name of fixtures) {
    it(name, () => {
      const actual = run(name);
      const expectedPath = join(dir, `${stem(name)}.expected.json`);
      if (update) {
        writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
        return;
      }
      expect(existsSync(expectedPath), `missing ${stem(name)}.expected.json (run with UPDATE_GOLDEN=1)`).toBe(true);
      expect(actual).toEqual(JSON.parse(readFileSync(expectedPath, 'utf8')));
    });
  }
});
