/**
 * Demo feeds for `npm run screenshots` (scripts/screenshots.ts): a handful of made-up but plausible sources, in
 * German and English as a real reader's list would be (news, tech, science, blogs), each with a site page that
 * declares an icon, so the sidebar and the cards show icons instead of letter tiles. Publication times are given
 * relative to the moment the script runs, so "vor 12 Minuten" stays true whenever the pictures are made.
 * All names, people and stories are invented.
 */
export interface DemoItem {
  title: string;
  /** The feed's description of the item: two or three sentences, as the card shows them. */
  summary: string;
  minutesAgo: number;
  author?: string;
}

export interface DemoFeed {
  slug: string;
  title: string;
  description: string;
  language: 'de' | 'en';
  /** The icon: a rounded tile in this colour with a white glyph (an SVG path in a 32 × 32 box) or letter. */
  icon: { color: string; letter?: string; path?: string };
  items: DemoItem[];
}

export const DEMO_FEEDS: DemoFeed[] = [
  {
    slug: 'tagesblick',
    title: 'Tagesblick',
    description: 'Nachrichten aus Deutschland und der Welt',
    language: 'de',
    icon: { color: '#1d4ed8', letter: 'T' },
    items: [
      {
        title: 'Bahn kündigt dichteren Takt zwischen Hamburg und Berlin an',
        summary:
          'Ab dem Fahrplanwechsel sollen Fernzüge zwischen den beiden größten Städten des Landes jede halbe Stunde fahren. Möglich machen das zusätzliche Züge und ein modernisiertes Stellwerk bei Wittenberge. Fahrgastverbände begrüßen den Schritt, mahnen aber mehr Pünktlichkeit an.',
        minutesAgo: 12,
      },
      {
        title: 'Mietpreise in Großstädten steigen langsamer als im Vorjahr',
        summary:
          'Neue Auswertungen von Wohnungsanzeigen zeigen eine Abkühlung auf dem Mietmarkt. In München und Frankfurt lagen die Angebotsmieten nur noch knapp über dem Niveau des Vorjahres. Fachleute sehen darin noch keine Trendwende.',
        minutesAgo: 95,
      },
      {
        title: 'Wetter: Nach dem Nebel kommt die Sonne zurück',
        summary:
          'Zum Wochenende setzt sich im Süden Hochdruckeinfluss durch. Nach zähem Morgennebel wird es vielerorts freundlich bei bis zu 16 Grad. Im Norden bleibt es wechselhaft.',
        minutesAgo: 210,
      },
      {
        title: 'Stadtwerke testen Wärmepumpen für ganze Straßenzüge',
        summary:
          'In drei Pilotquartieren versorgt eine zentrale Großwärmepumpe künftig Hunderte Haushalte. Das Projekt soll zeigen, wie Altbauviertel ohne Gas auskommen können. Erste Ergebnisse werden im Frühjahr erwartet.',
        minutesAgo: 380,
      },
      {
        title: 'Bundesliga: Aufsteiger bleibt die Überraschung der Saison',
        summary:
          'Mit einem 2:1 beim Tabellenzweiten hat der Aufsteiger seine Serie auf acht Spiele ohne Niederlage ausgebaut. Der Trainer bleibt trotzdem gelassen. „Wir schauen nur auf das nächste Spiel“, sagte er nach dem Abpfiff.',
        minutesAgo: 620,
      },
    ],
  },
  {
    slug: 'byte-sized',
    title: 'Byte Sized',
    description: 'Software engineering, one good read at a time',
    language: 'en',
    icon: { color: '#0f766e', path: 'M11 10 5 16l6 6M21 10l6 6-6 6M18 7l-4 18' },
    items: [
      {
        title: 'Why we moved our job queue back into Postgres',
        summary:
          'Two years ago we added a dedicated message broker for background jobs. Last month we removed it again, and our on-call rotation has never been quieter. Here is what SKIP LOCKED taught us about boring infrastructure.',
        minutesAgo: 38,
        author: 'Maya Lindqvist',
      },
      {
        title: 'HTTP caching headers, explained with one diagram',
        summary:
          'Cache-Control, ETag and Last-Modified each answer a different question. Once you see which one the browser asks first, most caching bugs explain themselves. A short guide with the diagram we keep pinned above our desks.',
        minutesAgo: 260,
        author: 'Daniel Okafor',
      },
      {
        title: 'The quiet comeback of RSS',
        summary:
          'Newsletters got noisy and timelines got worse, so people are rediscovering feeds. We looked at what changed for publishers, for readers and for the tools in between. The short version: it never really went away.',
        minutesAgo: 1300,
        author: 'Maya Lindqvist',
      },
      {
        title: 'Small web apps are fast again',
        summary:
          'Server-rendered HTML, a little JavaScript and a database on the same machine: the stack of 2005 now runs circles around many single-page apps. We measured three of our own projects to see why.',
        minutesAgo: 2200,
        author: 'Priya Raman',
      },
    ],
  },
  {
    slug: 'netzpuls',
    title: 'Netzpuls',
    description: 'Technik, Netzpolitik und digitale Gesellschaft',
    language: 'de',
    icon: { color: '#7c3aed', path: 'M4 17h5l3-8 4 14 4-10 2 4h6' },
    items: [
      {
        title: 'Glasfaser: Jeder dritte Haushalt kann jetzt anschließen',
        summary:
          'Der Ausbau hat im letzten Jahr deutlich angezogen, vor allem in kleineren Städten. Gebucht wird ein Anschluss aber noch zögerlich. Anbieter locken deshalb mit kostenlosen Hausanschlüssen.',
        minutesAgo: 64,
      },
      {
        title: 'Passkeys im Alltag: Was nach einem Jahr funktioniert – und was nicht',
        summary:
          'Immer mehr Dienste bieten die Anmeldung ohne Passwort an. Im Test klappte das auf dem eigenen Smartphone reibungslos, beim Gerätewechsel wurde es knifflig. Wir zeigen, worauf man beim Umstieg achten sollte.',
        minutesAgo: 470,
      },
      {
        title: 'Open Source in Behörden: Länder wollen gemeinsam entwickeln',
        summary:
          'Mehrere Bundesländer planen eine gemeinsame Plattform für quelloffene Verwaltungssoftware. Damit sollen Doppelentwicklungen vermieden werden. Kritiker fordern verbindliche Zusagen für die Pflege.',
        minutesAgo: 1500,
      },
    ],
  },
  {
    slug: 'orbit',
    title: 'Orbit Science News',
    description: 'Space, climate and the life sciences',
    language: 'en',
    icon: { color: '#b45309', path: 'M16 9a7 7 0 1 0 0 14 7 7 0 0 0 0-14zM3 21c4-1 10-4 14-7s8-7 9-9' },
    items: [
      {
        title: 'A new map of the ocean floor reveals thousands of seamounts',
        summary:
          'Satellite measurements of the sea surface have been turned into the most detailed map of the ocean floor so far. It shows nearly 20,000 underwater mountains that were never charted. The data will help model currents and fisheries.',
        minutesAgo: 140,
      },
      {
        title: 'How the brain sorts memories while we sleep',
        summary:
          'Researchers recorded brain activity in volunteers across full nights of sleep. Short bursts during deep sleep replayed the day’s experiences in a compressed form. The findings may explain why a good night helps us learn.',
        minutesAgo: 540,
      },
      {
        title: 'The physics of a perfect cup of coffee',
        summary:
          'Grind size, water temperature and a gentle swirl matter more than expensive equipment. A team of physicists explains what happens inside the filter. Their advice fits on a sticky note.',
        minutesAgo: 1700,
      },
    ],
  },
  {
    slug: 'julia',
    title: 'Julia schreibt',
    description: 'Ein Blog über Bücher, Radfahren und das langsame Leben',
    language: 'de',
    icon: { color: '#be185d', letter: 'J' },
    items: [
      {
        title: 'Zwölf Monate ohne Social Media – eine ehrliche Bilanz',
        summary:
          'Vor einem Jahr habe ich alle Apps gelöscht. Ich lese mehr, schlafe besser und verpasse trotzdem kaum etwas. Nur die Geburtstage meiner Freunde vergesse ich jetzt manchmal.',
        minutesAgo: 180,
        author: 'Julia Brenner',
      },
      {
        title: 'Mit dem Rad entlang der Mosel',
        summary:
          'Fünf Tage, 240 Kilometer und ziemlich viel Riesling. Die Route ist flach, gut ausgeschildert und im Herbst am schönsten. Meine Etappen und Lieblingsorte zum Nachfahren.',
        minutesAgo: 2900,
        author: 'Julia Brenner',
      },
    ],
  },
  {
    slug: 'slow-kitchen',
    title: 'Slow Kitchen',
    description: 'Seasonal recipes for weeknights',
    language: 'en',
    icon: { color: '#15803d', letter: 'S' },
    items: [
      {
        title: 'One-pan lemon orzo with spinach',
        summary: 'Twenty minutes, one pan and a squeeze of lemon at the end. It has become our Tuesday dinner. Swap the spinach for peas in spring.',
        minutesAgo: 330,
        author: 'Tom Hale',
      },
      {
        title: 'Five soups for cold evenings',
        summary:
          'From a smoky lentil soup to a classic French onion, these are the bowls we cook all winter. Most of them freeze well. All of them taste better the next day.',
        minutesAgo: 1900,
        author: 'Tom Hale',
      },
    ],
  },
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The feed's RSS 2.0 document; items link to pages on the same demo server (never opened for the pictures). */
export function demoRss(feed: DemoFeed, base: string, now = Date.now()): string {
  const items = feed.items
    .map((item, i) => {
      const link = `${base}/${feed.slug}/${i + 1}`;
      return (
        `<item><title>${esc(item.title)}</title><link>${link}</link><guid isPermaLink="true">${link}</guid>` +
        `<pubDate>${new Date(now - item.minutesAgo * 60_000).toUTCString()}</pubDate>` +
        (item.author ? `<dc:creator>${esc(item.author)}</dc:creator>` : '') +
        `<description>${esc(`<p>${esc(item.summary)}</p>`)}</description></item>`
      );
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>${esc(feed.title)}</title>
<link>${base}/${feed.slug}/</link><description>${esc(feed.description)}</description><language>${feed.language}</language>
${items}
</channel></rss>`;
}

/** The feed's site page: just enough HTML to declare its icon, which the server looks up after the first fetch. */
export function demoSite(feed: DemoFeed): string {
  return `<!doctype html><html lang="${feed.language}"><head><meta charset="utf-8"><title>${esc(feed.title)}</title>
<link rel="icon" type="image/svg+xml" href="/${feed.slug}/icon.svg"></head><body><h1>${esc(feed.title)}</h1></body></html>`;
}

export function demoIcon(feed: DemoFeed): string {
  const { color, letter, path } = feed.icon;
  const glyph = path
    ? `<path d="${path}" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>`
    : `<text x="16" y="22.5" text-anchor="middle" font-family="Georgia, 'DejaVu Serif', serif" font-size="19" font-weight="700" fill="#fff">${esc(letter ?? feed.title[0])}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${color}"/>${glyph}</svg>`;
}
