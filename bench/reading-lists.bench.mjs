// Reading lists at scale (bench/README.md "Budgets"; docs/decisions.md "Organising: folders and reading lists"): one user with
// 500 feeds and 100,000 articles (BENCH_ARTICLES), on SQLite and PostgreSQL (when reachable), `feeder web` started
// as in production and timed over real HTTP. Measures: creating a smart list (its membership is computed over every
// article of the user before the answer, in steps that yield to the event loop) with a keyword rule and with a
// regex rule, and how long /healthz takes meanwhile (the server must stay responsive); then, with 10 lists, the
// reading-list endpoints (lists with counts, unread counts, a list's page 1 and 10) and the all-feeds list page,
// whose rows now carry in_reading_list. BENCH_SKIP_SQLITE=1 / BENCH_SKIP_POSTGRES=1 skip a dialect.
import { measure } from './lib/http.mjs';
import { benchOnBothDialects, signIn, sqlFor } from './lib/seeded-server.mjs';

const FEEDS = Number(process.env.BENCH_FEEDS || 500);
const ARTICLES = Number(process.env.BENCH_ARTICLES || 100_000);
const SAMPLES = 200;

const WORDS = 'climate   economy   football  science   election  startup   research  festival  markets   software  ';
// About 1.4 KB of text per article, as the refresh benchmark's items.
const FILLER = 'A fairly ordinary sentence about things that happen in the world and elsewhere. '.repeat(17);

function seedStatements(dialect, userId) {
  const { seq, from, iso, cat, now, guidHash, recount, finish } = sqlFor(dialect);
  const word = `trim(substr('${WORDS}', (i % 10) * 10 + 1, 10))`;
  return [
    `${seq(FEEDS)} insert into feeds (id, url, title, next_check_at, error_count, created_at, updated_at)
       select i + 1, ${cat(`'https://feeds.example/'`, 'i', `'.xml'`)}, ${cat(`'Feed '`, 'i')}, '2999-01-01T00:00:00.000Z', 0, ${now}, ${now} ${from(FEEDS)}`,
    `${seq(FEEDS)} insert into subscriptions (user_id, feed_id, sort_order, created_at) select ${userId}, i + 1, i, ${now} ${from(FEEDS)}`,
    `${seq(ARTICLES)} insert into articles (id, feed_id, guid_hash, guid, url, title, content, content_hash, published_at, created_at, last_seen_at)
       select i + 1, i % ${FEEDS} + 1, ${guidHash}, ${cat(`'guid-'`, 'i')},
              ${cat(`'https://site.example/a/'`, 'i')}, ${cat(`'Headline '`, 'i', `' on '`, word)},
              ${cat(`'<p>Article '`, 'i', `' reports. '`, `'${FILLER}'`, `' More on '`, word, `'.</p>'`)},
              'x', ${iso('i * 30')}, ${now}, ${now} ${from(ARTICLES)}`,
    `insert into user_articles (user_id, article_id, feed_id, published_at, is_read) select ${userId}, id, feed_id, published_at, case when id % 10 < 7 then 1 else 0 end from articles`,
    recount,
    ...finish({ articles: ARTICLES, feeds: FEEDS }),
  ];
}

/** Times one request while /healthz is asked every 10 ms: the request's time and the worst /healthz meanwhile. */
async function whileResponsive(base, request) {
  let done = false;
  const health = [];
  const prober = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${base}/healthz`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  const res = await request();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`HTTP ${res.status} ${await res.text()}`);
  const body = await res.json();
  done = true;
  await prober;
  health.sort((a, b) => a - b);
  return {
    ms,
    body,
    healthz_max_ms: +(health.at(-1) ?? 0).toFixed(1),
    healthz_p95_ms: +(health[Math.floor(health.length * 0.95)] ?? 0).toFixed(1),
    healthz_samples: health.length,
  };
}

await benchOnBothDialects({
  name: 'reading-lists',
  schema: 'bench_reading_lists',
  port: 3800 + Math.floor(Math.random() * 90),
  sizes: { feeds: FEEDS, articles: ARTICLES },
  seed: seedStatements,
  async serve({ dialect, base }) {
    const headers = await signIn(base);
    const json = { ...headers, 'content-type': 'application/json' };
    const get = (path) => () => fetch(`${base}${path}`, { headers });
    const tag = { dialect, articles: ARTICLES };
    const create = (name, rules) => () => fetch(`${base}/api/reading-lists`, { method: 'POST', headers: json, body: JSON.stringify({ name, is_smart: true, rules }) });

    // Creating smart lists: membership over every article before the answer (10 % of articles match each).
    const smart = [
      ['keyword-both', [{ rule_type: 'keyword', rule_scope: 'both', rule_value: 'climate' }]],
      ['keyword-title', [{ rule_type: 'keyword', rule_scope: 'title', rule_value: 'economy' }]],
      ['regex-both', [{ rule_type: 'regex', rule_scope: 'both', rule_value: '\\b(football|science)\\b' }]],
    ];
    const ids = [];
    for (const [name, rules] of smart) {
      const r = await whileResponsive(base, create(name, rules));
      ids.push(r.body.reading_list.id);
      console.log(
        JSON.stringify({
          bench: `reading-lists-create-smart-${name}-${dialect}`,
          ...tag,
          seconds: +(r.ms / 1000).toFixed(2),
          members: r.body.reading_list.article_count,
          healthz_p95_ms: r.healthz_p95_ms,
          healthz_max_ms: r.healthz_max_ms,
          healthz_samples: r.healthz_samples,
        }),
      );
    }
    // A simple list of 300 articles, and more smart lists up to 10.
    const simple = (await (await fetch(`${base}/api/reading-lists`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Later' }) })).json()).reading_list.id;
    await measure(
      `reading-lists-add-article-${dialect}`,
      300,
      1,
      (n) => fetch(`${base}/api/reading-lists/${simple}/articles/${n * 37 + 1}`, { method: 'POST', headers }),
      tag,
    );
    for (let i = 0; i < 6; i++) {
      const r = await create(`extra-${i}`, [{ rule_type: 'keyword', rule_scope: 'title', rule_value: `headline ${i}1` }])();
      if (!r.ok) throw new Error(await r.text());
    }
    await measure(`reading-lists-warmup-${dialect}`, 20, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20`), tag);
    await measure(`reading-lists-index-${dialect}`, SAMPLES, 1, get('/api/reading-lists'), tag);
    await measure(`reading-lists-unread-counts-${dialect}`, SAMPLES, 1, get('/api/reading-lists/unread_counts'), tag);
    await measure(`reading-lists-page1-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20`), tag);
    await measure(`reading-lists-page10-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=10&per_page=20`), tag);
    await measure(`reading-lists-page1-unread-${dialect}`, SAMPLES, 1, get(`/api/reading-lists/${ids[0]}/articles?page=1&per_page=20&show_read=0`), tag);
    await measure(`reading-lists-articles-page1-${dialect}`, SAMPLES, 1, get('/api/articles?page=1&per_page=20'), tag);
    const r = await whileResponsive(base, () =>
      fetch(`${base}/api/articles/read/all`, { method: 'POST', headers: json, body: JSON.stringify({ reading_list_id: ids[0] }) }),
    );
    console.log(JSON.stringify({ bench: `reading-lists-mark-list-read-${dialect}`, ...tag, seconds: +(r.ms / 1000).toFixed(2), marked: r.body.marked }));
  },
});
