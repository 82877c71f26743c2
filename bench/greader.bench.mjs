// Google Reader API under load (bench/README.md "Budgets": stream/contents with n=20 ≥ 750 req/s under
// `wrk -t2 -c4` with 100,000 articles), on SQLite and on PostgreSQL (when reachable). One user reads 100 feeds
// (20 of them in folders) holding 100,000 articles of about 1 KB of HTML each, 30 % unread; the reader-apps
// password is on. The data is generated in SQL, `feeder web` is started as in production, the benchmark signs in
// with ClientLogin as a client does, and wrk drives the stream calls a client makes most:
// the reading list with read items (n=20), the unread reading list (xt=read, n=20), and stream/items/ids of the
// unread items (n=1000, as NetNewsWire and Reeder ask). Then, one request at a time: unread-count, a second page by
// continuation, stream/items/contents of 100 ids, and edit-tag of one item.
// BENCH_ARTICLES and BENCH_FEEDS shrink the data set; BENCH_SKIP_SQLITE=1 and BENCH_SKIP_POSTGRES=1 skip a dialect.
import { createHash } from 'node:crypto';
import { measure, measureWrk } from './lib/http.mjs';
import { BENCH_EMAIL, benchOnBothDialects, sqlFor } from './lib/seeded-server.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 100);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);
const APP_PASSWORD = 'bench-apps-passw-ord00';
const PARAGRAPH = 'The committee met on Tuesday and discussed the budget for the coming year, the state of the roads, and the new library. ';

function seedStatements(dialect, userId) {
  const { seq, from, iso, cat, now, guidHash, recount, finish } = sqlFor(dialect);
  const body = `'<p>${PARAGRAPH.repeat(4)}</p><p>${PARAGRAPH.repeat(4)}</p>'`;
  const key = createHash('md5').update(`${BENCH_EMAIL}:${APP_PASSWORD}`).digest('hex');
  return [
    `update users set fever_api_enabled = 1, app_password_key = '${key}' where id = ${userId}`,
    `insert into folders (user_id, name, sort_order, created_at) values (${userId}, 'News', 0, ${now}), (${userId}, 'Tech', 1, ${now})`,
    `${seq(FEEDS)} insert into feeds (id, url, title, site_url, description, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, ${cat(`'https://site.example/'`, 'i')},
              ${cat(`'Bench feed number '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at, folder_id)
       select ${userId}, i + 1, i, ${now}, case when i < 10 then (select min(id) from folders) when i < 20 then (select max(id) from folders) end ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, author, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${guidHash}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline number '`, 'i')}, 'A. Writer', ${body},
              'x', ${iso('i * 30')}, ${iso('i * 30 - 60')}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read, is_favorite)
       select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end, case when id % 500 = 0 then 1 else 0 end from articles`,
    recount,
    ...finish({ articles: ARTICLES, feeds: FEEDS }),
  ];
}

await benchOnBothDialects({
  name: 'greader',
  schema: 'bench_greader',
  port: 4100 + Math.floor(Math.random() * 90),
  sizes: { feeds: FEEDS, articles: ARTICLES },
  seed: seedStatements,
  async serve({ dialect, base, server }) {
    const login = await fetch(`${base}/api/greader.php/accounts/ClientLogin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ Email: BENCH_EMAIL, Passwd: APP_PASSWORD }),
    });
    const auth = /Auth=(.+)/.exec(await login.text())?.[1];
    if (!auth) throw new Error(`ClientLogin failed: ${login.status}`);
    const headers = { authorization: `GoogleLogin auth=${auth}` };
    const api = `${base}/api/greader.php/reader/api/0`;
    const tag = { dialect };
    const calls = {
      [`greader-contents-${dialect}`]: `${api}/stream/contents/user/-/state/com.google/reading-list?n=20`,
      [`greader-contents-unread-${dialect}`]: `${api}/stream/contents/user/-/state/com.google/reading-list?n=20&xt=user/-/state/com.google/read`,
      [`greader-ids-unread-${dialect}`]: `${api}/stream/items/ids?s=user/-/state/com.google/reading-list&xt=user/-/state/com.google/read&n=1000`,
    };
    // Each call answers a full page before it is timed (wrk counts any answer).
    for (const url of Object.values(calls)) {
      const res = await fetch(url, { headers });
      const body = await res.json();
      const count = (body.items ?? body.itemRefs).length;
      if (!res.ok || count !== (url.includes('n=1000') ? 1000 : 20)) throw new Error(`${url}: HTTP ${res.status}, ${count} items`);
    }
    for (const [name, url] of Object.entries(calls)) {
      if (!measureWrk(name, url, headers, { pid: server.pid, extra: tag })) await measure(name, 3000, 4, () => fetch(url, { headers }), tag);
    }
    const get = (url) => () => fetch(url, { headers });
    await measure(`greader-unread-count-${dialect}`, 200, 1, get(`${api}/unread-count?output=json`), tag);
    const first = await (await fetch(calls[`greader-contents-${dialect}`], { headers })).json();
    await measure(`greader-contents-page2-${dialect}`, 200, 1, get(`${calls[`greader-contents-${dialect}`]}&c=${first.continuation}`), tag);
    const ids = (await (await fetch(calls[`greader-ids-unread-${dialect}`], { headers })).json()).itemRefs.map((r) => r.id);
    const contentsBody = (n) =>
      ids
        .slice((n % 10) * 100, (n % 10) * 100 + 100)
        .map((id) => `i=${id}`)
        .join('&');
    const form = { ...headers, 'content-type': 'application/x-www-form-urlencoded' };
    await measure(
      `greader-items-contents-100-${dialect}`,
      100,
      1,
      (n) => fetch(`${api}/stream/items/contents`, { method: 'POST', headers: form, body: contentsBody(n) }),
      tag,
    );
    await measure(
      `greader-edit-tag-${dialect}`,
      200,
      1,
      (n) => fetch(`${api}/edit-tag`, { method: 'POST', headers: form, body: `i=${ids[n]}&a=user/-/state/com.google/read` }),
      tag,
    );
  },
});
