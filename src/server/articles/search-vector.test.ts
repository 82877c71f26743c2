import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processDocument } from '../refresh/process-document.js';
import { createTestDatabase, DIALECTS, TEST_POSTGRES_URL } from '../test/dialects.js';
import { pgTsQuery } from './article-text.js';
import { searchVectorsAgree } from './articles.repository.js';
import { searchVectorProbe, simpleTsvector } from './search-vector.js';

/** The binary vector in tsvector's text form (lexemes in PostgreSQL's order), to read it without a database. */
function vectorText(v: Uint8Array): string {
  const b = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  const entries: [Buffer, number[]][] = [];
  let at = 4;
  for (let n = b.readInt32BE(0); n > 0; n--) {
    const end = b.indexOf(0, at);
    const lexeme = b.subarray(at, end);
    at = end + 1;
    const positions: number[] = [];
    for (let count = b.readUInt16BE(at), k = 0; k < count; k++) positions.push(b.readUInt16BE(at + 2 + 2 * k));
    at += 2 + 2 * positions.length;
    entries.push([lexeme, positions]);
  }
  entries.sort(([a], [c]) => Buffer.compare(a, c));
  return entries.map(([lexeme, positions]) => `'${lexeme.toString('utf8')}':${positions.join(',')}`).join(' ');
}

const vector = (text: string) => {
  const v = simpleTsvector(text);
  return v && vectorText(v);
};

/** Texts the parse threads leave to PostgreSQL: another kind of token, or a character outside the tables. */
const LEFT_TO_POSTGRES = [
  'e.g. this',
  'see example.com',
  'a/b and/or',
  'version 1.5',
  'from -5 to +5',
  '1e5 particles',
  'mail me@example.org',
  'http://example.com/x?y=1',
  '&amp; and &#39;',
  '<b>bold</b>',
  'covid-19',
  'x-1',
  '..',
  '~/notes',
  'café\u0301',
  'zero\u200bwidth',
  'soft\u00adhyphen',
  'emoji 😀',
  '中文',
  'Istanbul İ',
  'control\u0001char',
  'digits ٣ ²',
  `${'a'.repeat(201)} long`,
];

/** Hostile and unusual texts for the comparison with PostgreSQL (handled or not, never a different vector). */
const HOSTILE = [
  ...LEFT_TO_POSTGRES,
  '',
  '   ',
  '—…“”',
  "it's O'Reilly’s",
  'Straße ÄÖÜ äöü ÀÉÎÕÛ ŒŸ ǅǄǆ ϴΣΑΣ σας ЁЖИК ёжик',
  'well-known state-of-the-art über-cool résumé-writing A-b-C',
  'foo--bar -word word- - -- trailing-',
  'C++ c+ a+b',
  'Tom & Jerry a < b a > b x:y #tag @user 100% $5 x=y? [a] {b} |c| ^d `e` "f" \\g',
  'end. Next... wait.... ok . .',
  '3d 007 0 123abc abc123 3eggs',
  'line\nbreak\ttab\rcr\fff\vvt\u00a0nbsp\u2009thin\u3000ideographic',
  'ΑΣ ας Σ',
  `${'word '.repeat(300)}`,
  `${Array.from({ length: 17_000 }, (_, i) => `w${i % 7} x`).join(' ')}`,
  'µ ª º ß ÿ ŉ',
];

describe('search vectors made on the parse threads (search-vector.ts)', () => {
  it('makes what to_tsvector(simple) makes for words, hyphenated words and separators', () => {
    expect(vector('well-known fact')).toBe("'fact':4 'known':3 'well':2 'well-known':1");
    expect(vector("don't it’s")).toBe("'don':1 'it':3 's':4 't':2");
    expect(vector('C++ and c+')).toBe("'and':2 'c':1,3");
    expect(vector('ΣΑΣ σας')).toBe("'σας':2 'σασ':1");
    expect(vector('Tom & Jerry — blog 7.')).toBe("'7':4 'blog':3 'jerry':2 'tom':1");
    expect(vector('')).toBe('');
  });

  it('keeps at most 255 positions per lexeme, and positions past 16,383 count as 16,383', () => {
    expect(vector('a '.repeat(300))).toBe(`'a':${Array.from({ length: 255 }, (_, i) => i + 1).join(',')}`);
    const long = `${'x '.repeat(16_390)}y z y`;
    expect(vector(long)).toMatch(/ 'y':16383 'z':16383$/);
  });

  it('leaves every other kind of token and character to PostgreSQL', () => {
    for (const text of LEFT_TO_POSTGRES) expect(vector(text), text).toBeNull();
  });
});

describe.runIf(DIALECTS.includes('postgres'))('search vectors against PostgreSQL', () => {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  beforeAll(() => client.connect());
  afterAll(() => client.end());

  /**
   * For every text the module handles, its vector is PostgreSQL's to_tsvector('simple') of the text (compared as
   * PostgreSQL reads the binary vector). Returns how many texts it handled.
   */
  async function compare(texts: string[]): Promise<number> {
    const handled = texts.map((t) => ({ t, v: simpleTsvector(t) })).filter((x) => x.v !== null);
    for (let from = 0; from < handled.length; from += 200) {
      const batch = handled.slice(from, from + 200);
      const params = batch.flatMap(({ t, v }) => [Buffer.from(v!.buffer, v!.byteOffset, v!.byteLength), t]);
      const values = batch.map((_, k) => `($${2 * k + 1}::tsvector, to_tsvector('simple', $${2 * k + 2}), ${k})`).join(', ');
      const { rows } = await client.query<{ mine: string; theirs: string }>(
        `select mine::text as mine, theirs::text as theirs from (values ${values}) v(mine, theirs, k) order by k`,
        params,
      );
      rows.forEach((r, k) => expect(r.mine, batch[k].t).toBe(r.theirs));
    }
    return handled.length;
  }

  it('agrees with to_tsvector on the parser fixtures as the refresh stores them', async () => {
    const dir = new URL('../reader/parse/testdata/', import.meta.url);
    const texts: string[] = [];
    for (const name of readdirSync(dir).filter((f) => /\.(xml|json|rss|atom|rdf)$/.test(f) && !f.endsWith('.expected.json'))) {
      try {
        const doc = processDocument({
          body: readFileSync(new URL(name, dir)),
          url: 'https://example.com/feed',
          contentType: null,
          known: new Map(),
          now: Date.UTC(2026, 0, 1),
        });
        for (const item of [...doc.fresh, ...doc.changed]) texts.push(`${item.title} ${item.text}`);
      } catch {
        // a fixture of a document that is not a feed
      }
    }
    expect(texts.length).toBeGreaterThan(100);
    expect(await compare(texts)).toBeGreaterThan(texts.length / 4);
  });

  it('agrees with to_tsvector on hostile and unusual texts, and on its own probe', async () => {
    await compare([...HOSTILE, searchVectorProbe()]);
    expect(simpleTsvector(searchVectorProbe())).not.toBeNull();
  });

  it('agrees with to_tsvector on generated texts', async () => {
    const pieces = [
      'word',
      'Word',
      'WORD',
      'e',
      'E',
      'café',
      'ΣΑΣ',
      'straße',
      'İ',
      'ǅ',
      'µ',
      '1',
      '2024',
      '-',
      '--',
      '.',
      '..',
      '...',
      ' ',
      '\n',
      '\u00a0',
      '—',
      '’',
      '…',
      '/',
      '@',
      '&',
      '&amp;',
      '<',
      '<b>',
      '>',
      '+',
      '~',
      '_',
      ':',
      "'",
      '#',
      '\u0301',
      '😀',
      '\u0001',
    ];
    const text = fc
      .array(
        fc.oneof(
          fc.constantFrom(...pieces),
          fc.string({ maxLength: 3 }),
          fc.constantFrom(...pieces).map((p) => `${p} `),
        ),
        { maxLength: 14 },
      )
      .map((parts) => parts.join(''));
    const texts = fc.sample(text, { numRuns: 3000, seed: 20261125 });
    expect(await compare(texts)).toBeGreaterThan(300);
  });

  it('finds what to_tsvector finds through the search query', async () => {
    const text = 'Kestrel sighted: a well-known bird of prey, hovering over Straße fields…';
    const v = simpleTsvector(text)!;
    const param = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    for (const q of ['kestrel', 'well-known', 'known bird', 'STRASSE', 'straße', 'hover', 'prey fields', 'eagle']) {
      const { rows } = await client.query<{ mine: boolean; theirs: boolean }>(
        `select $1::tsvector @@ to_tsquery('simple', $3) as mine, to_tsvector('simple', $2) @@ to_tsquery('simple', $3) as theirs`,
        [param, text, pgTsQuery(q)],
      );
      expect(rows[0].mine, q).toBe(rows[0].theirs);
    }
  });

  it('turns anything a user types into a valid query that finds the text it was typed from', async () => {
    const pieces = [
      'example.com',
      'news-desk@example.org',
      '3.5',
      '-11',
      '2026-11-25',
      'https://a.example/b?c=1',
      "o'neil",
      'x-y',
      'C++',
      'Straße',
      '(',
      ')',
      "'",
      '"',
      '\\',
      ':*',
      '&',
      '|',
      '!',
      '<->',
      ',',
      '.',
    ];
    const query = fc
      .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 }), fc.constantFrom(' ', '  ', '\t')), { minLength: 1, maxLength: 10 })
      .map((parts) => parts.join(''));
    let checked = 0;
    for (const q of fc.sample(query, { numRuns: 1500, seed: 20261125 })) {
      const tsquery = pgTsQuery(q);
      if (tsquery === null) continue;
      const { rows } = await client.query<{ found: boolean }>(`select to_tsvector('simple', $1) @@ to_tsquery('simple', $2) as found`, [q, tsquery]);
      expect({ q, tsquery, found: rows[0].found }).toEqual({ q, tsquery, found: true });
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

for (const dialect of DIALECTS) {
  it(`searchVectorsAgree: ${dialect === 'postgres' ? 'yes on this PostgreSQL' : 'no on SQLite'}`, async () => {
    const database = await createTestDatabase(dialect);
    try {
      expect(await searchVectorsAgree(database.db)).toBe(dialect === 'postgres');
    } finally {
      await database.destroy();
    }
  });
}
