// Reading at scale (bench/README.md "Budgets", reading): one user subscribed to 1,000 feeds holding 1,000,000 articles (30 %
// unread), on SQLite and on PostgreSQL (when reachable). The data is generated in SQL, then `feeder web` is
// started as in production and timed over real HTTP, one request at a time (latency, not throughput):
// the article list (page 1, a deeper page, read included, one feed), unread counts, search (a common and a rare
// word), marking one article read, mark-all-read of one feed, and mark-all-read of everything (once, at the end).
// BENCH_ARTICLES and BENCH_FEEDS shrink the data set; BENCH_SKIP_SQLITE=1 and BENCH_SKIP_POSTGRES=1 skip a dialect.
import { measure } from './lib/http.mjs';
import { benchOnBothDialects, signIn, sqlFor } from './lib/seeded-server.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 1000);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 1_000_000);
const SAMPLES = 200;

// Twenty topic words spread evenly (5 % of articles each) and one rare word (about 1 in 10,000).
const WORDS =
  'climate   economy   football  science   election  startup   research  festival  markets   software  ' +
  'energy    transport health    culture   weather   security  budget    education travel    medicine  ';

/** The SQL that generates the data, for either dialect (see sqlFor). */
function seedStatements(dialect, userId) {
  const { sqlite, seq, from, iso, cat, now, guidHash, recount, finish } = sqlFor(dialect);
  const word = `trim(substr('${WORDS}', (i % 20) * 10 + 1, 10))`;
  const rare = `case when i % 10007 = 0 then ' zephyr' else '' end`;
  return [
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at)
       select ${userId}, i + 1, i, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, content, teaser, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${guidHash}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline '`, 'i', `' on '`, word, rare)},
              ${cat(`'<p>Article '`, 'i', `' reports on '`, word, `'. A second sentence follows here. And a third one closes the summary.</p>'`)},
              ${cat(`'Article '`, 'i', `' reports on '`, word, `'. A second sentence follows here. And a third one closes the summary.'`)},
              'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    sqlite
      ? `insert into articles_fts (rowid, title, body) select id, title, replace(replace(content, '<p>', ''), '</p>', '') from articles`
      : `update articles set search_vector = to_tsvector('simple', title || ' ' || replace(replace(content, '<p>', ''), '</p>', ''))`,
    recount,
    ...finish({ articles: ARTICLES, feeds: FEEDS }),
  ];
}

await benchOnBothDialects({
  name: 'reading',
  schema: 'bench_reading',
  port: 3900 + Math.floor(Math.random() * 90),
  sizes: { feeds: FEEDS, articles: ARTICLES },
  seed: seedStatements,
  async serve({ dialect, base }) {
    const headers = await signIn(base);
    const get = (path) => () => fetch(`${base}${path}`, { headers });
    const post = (path, body) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    const tag = { dialect };
    const feedOf = (n) => ((n * 7919) % FEEDS) + 1;

    await measure(`reading-warmup-${dialect}`, 20, 1, get('/api/articles?page=1&per_page=20'), tag);
    await measure(`reading-list-page1-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20'), tag);
    await measure(`reading-list-page10-${dialect}`, SAMPLES, 1, get('/api/articles?page=10&per_page=20'), tag);
    await measure(`reading-list-with-read-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20&show_read=true'), tag);
    await measure(`reading-list-feed-${dialect}`, SAMPLES, 1, (n) => fetch(`${base}/api/feeds/${feedOf(n)}/articles?page=1&per_page=20`, { headers }), tag);
    await measure(`reading-favorites-${dialect}`, SAMPLES, 1, get('/api/articles/favorites?page=1&per_page=20'), tag);
    await measure(`reading-unread-counts-${dialect}`, SAMPLES, 1, get('/api/feeds/unread_counts'), tag);
    // The poll's call: a delta against the version of the last answer (nothing changed: no counts, only the total).
    const { version } = await (await fetch(`${base}/api/feeds/unread_counts`, { headers })).json();
    await measure(`reading-unread-counts-delta-${dialect}`, SAMPLES, 1, get(`/api/feeds/unread_counts?since=${encodeURIComponent(version)}`), tag);
    await measure(
      `reading-search-common-${dialect}`,
      SAMPLES,
      1,
      (n) => fetch(`${base}/api/articles/search?q=${WORDS.split(/\s+/)[n % 20]}&page=1&per_page=20`, { headers }),
      tag,
    );
    await measure(`reading-search-rare-${dialect}`, SAMPLES, 1, get('/api/articles/search?q=zephyr&page=1&per_page=20'), tag);
    // Unread articles have ids with id % 10 >= 7 (see the seed); each one is marked once.
    await measure(`reading-mark-one-${dialect}`, SAMPLES, 1, (n) => post(`/api/articles/${n * 10 + 7}/read`), tag);
    await measure(`reading-read-all-feed-${dialect}`, 100, 1, (n) => post('/api/articles/read/all', { feed_id: feedOf(n) }), tag);
    await measure(`reading-read-all-everything-${dialect}`, 1, 1, () => post('/api/articles/read/all'), tag);
  },
});
