// Fever API throughput (bench/README.md "Budgets": `?api&items` ≥ 1,700 req/s with 100,000 articles under
// `wrk -t2 -c4` on 2 cores), on SQLite and on PostgreSQL (when reachable). One user with 100 feeds in 10 folders and
// 100,000 articles (30 % unread, 1 in 500 saved, about 1 KB of HTML each) is generated in SQL, the reader apps are
// switched on (api_key = md5(email:password), as the settings store it), `feeder web` is started as in production,
// and wrk drives GET /api/fever.php with the api_key in the query string:
//   auth-only        ?api                        (the key look-up alone: the floor of a Fever request)
//   items            ?api&items                  (the oldest 50: a sync client's first page)
//   items-since      ?api&items&since_id=50000   (a page in the middle of since_id paging)
//   items-newest     ?api&items&max_id=0         (the newest 50)
//   unread-ids       ?api&unread_item_ids        (30,000 ids)
//   groups-feeds     ?api&groups&feeds
// Without wrk a fetch loop measures instead (lower figures: the generator shares the two cores).
// BENCH_ARTICLES shrinks the data set; the other knobs (skip a dialect, keep the data, BENCH_ROOT) are those of
// lib/seeded-server.mjs.
import { createHash } from 'node:crypto';
import { measure, measureWrk } from './lib/http.mjs';
import { BENCH_EMAIL, benchOnBothDialects, sqlFor } from './lib/seeded-server.mjs';

const FEEDS = 100;
const FOLDERS = 10;
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);

const APP_PASSWORD = 'bench-appsx-passw-ordxx-fever';
const API_KEY = createHash('md5').update(`${BENCH_EMAIL}:${APP_PASSWORD}`).digest('hex');
// About 1 KB of article HTML: a headline paragraph, three body paragraphs and a link.
const BODY =
  '<p>The council met on Tuesday evening to discuss the new cycle lanes along the river, the budget for the coming year and the plans for the old railway station.</p>' +
  '<p>Residents had asked for safer crossings near the schools; the transport committee presented three options, each with its costs, its timetable and the trees it would keep or lose.</p>' +
  '<p>After a long debate the members agreed to consult the neighbourhoods again in spring, to publish the full study online and to return to the question before the summer break.</p>' +
  '<p>Read the <a href="https://site.example/council">full minutes</a> and the <a href="https://site.example/study">transport study</a> on the city website.</p>';

function seedStatements(dialect, userId) {
  const { seq, from, iso, cat, now, guidHash, recount, finish } = sqlFor(dialect);
  return [
    `update users set fever_api_enabled = 1, app_password_key = '${API_KEY}' where id = ${userId}`,
    `${seq(FOLDERS)} insert into folders (id, user_id, name, sort_order, created_at) select i + 1, ${userId}, ${cat(`'Folder '`, 'i')}, i, ${now} ${from(FOLDERS)}`,
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, last_fetched_at, last_success_at, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now}, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, folder_id, created_at)
       select ${userId}, i + 1, i, i % ${FOLDERS} + 1, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, author, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${guidHash}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Council agrees to consult on cycle lanes, part '`, 'i')}, 'City Desk',
              ${cat(`'<p>Article '`, 'i', `'</p>'`, `'${BODY}'`)}, 'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    recount,
    // Autovacuum would vacuum and analyse the bulk load within a minute; until it has, index-only scans of the
    // unread index still visit every row.
    ...finish({ articles: ARTICLES, feeds: FEEDS, folders: FOLDERS }, { vacuum: true }),
  ];
}

await benchOnBothDialects({
  name: 'fever',
  schema: 'bench_fever',
  port: 3990 + Math.floor(Math.random() * 9),
  sizes: { feeds: FEEDS, articles: ARTICLES },
  seed: seedStatements,
  async serve({ dialect, base }) {
    const url = (query) => `${base}/api/fever.php?${query}&api_key=${API_KEY}`;

    // The answers are what a client expects before anything is timed.
    const first = await (await fetch(url('api&items'))).json();
    if (first.auth !== 1 || first.items.length !== 50 || first.total_items !== ARTICLES)
      throw new Error(`unexpected Fever answer: ${JSON.stringify(first).slice(0, 300)}`);
    const bytes = (await (await fetch(url('api&items'))).arrayBuffer()).byteLength;
    console.log(JSON.stringify({ bench: `fever-items-response-${dialect}`, bytes }));

    const cases = [
      // The floor of a Fever request (key look-up, nothing else), as a reference for the machine's load.
      ['auth-only', 'api'],
      ['items', 'api&items'],
      ['items-since', `api&items&since_id=${Math.floor(ARTICLES / 2)}`],
      ['items-newest', 'api&items&max_id=0'],
      ['unread-ids', 'api&unread_item_ids'],
      ['groups-feeds', 'api&groups&feeds'],
    ];
    for (const [name, query] of cases) {
      // A short warm-up fills the statement caches and the JIT before wrk's 8 seconds.
      for (let i = 0; i < 200; i++) await (await fetch(url(query))).arrayBuffer();
      if (!measureWrk(`fever-${name}-${dialect}`, url(query), {})) {
        await measure(`fever-${name}-${dialect}`, 4000, 4, () => fetch(url(query)), { dialect, tool: 'fetch loop (no wrk)' });
      }
    }
  },
});
