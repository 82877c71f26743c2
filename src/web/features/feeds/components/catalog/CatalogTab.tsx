import { ArrowLeft, ChevronRight, Search } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AddFeedResponse, CatalogCategory, CatalogFeed } from '../../../../../common/api.js';
import { Alert } from '../../../../components/ui/Alert.js';
import { Button } from '../../../../components/ui/Button.js';
import { Skeleton } from '../../../../components/ui/Skeleton.js';
import { useCatalog, useCatalogSubscribed } from '../../api.js';
import { FeedIcon } from '../FeedIcon.js';
import { CATALOG_LANGUAGE_OPTIONS, categoryCounts, filterFeeds, searchCatalog, type CatalogLanguageFilter } from './filter.js';
import { SubscribeButton, useSubscribe, type SubscribeState } from './SubscribeButton.js';

/**
 * The add-feed dialog's catalog tab (dashboard.md §2 "Feed catalog", §4, §5 "Catalog filtering", §8 "Subscribe"):
 * category tiles with feed counts, a language dropdown (ALL, DE, EN), a search box across all categories and a
 * category view with a back button. The views go categories → category list, and search results whenever the box
 * holds text. Subscribing keeps the dialog open; entries the user reads already show the "subscribed" marker: the
 * server says which (GET /api/catalog/subscribed, docs/decisions.md "The catalog's subscribed entries"), and the
 * lists wait for that answer, so no entry shows a subscribe button it should not.
 */
export function CatalogTab({ onSubscribed }: { onSubscribed?(feed: AddFeedResponse): void }) {
  const { t, i18n } = useTranslation();
  const ids = { search: useId(), language: useId(), heading: useId() };
  const catalog = useCatalog();
  const subscribed = useCatalogSubscribed();
  const [language, setLanguage] = useState<CatalogLanguageFilter>('ALL');
  const [query, setQuery] = useState('');
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const { states, message, setMessage, subscribe: subscribeUrl } = useSubscribe();
  const backRef = useRef<HTMLButtonElement>(null);
  const tileRefs = useRef(new Map<string, HTMLButtonElement>());
  const returnTo = useRef<string | null>(null);

  const categories = useMemo(() => catalog.data ?? [], [catalog.data]);
  const english = !i18n.language.startsWith('de');
  const categoryName = (c: CatalogCategory) => (english ? c.nameEn : c.name);
  const counts = useMemo(() => categoryCounts(categories, language), [categories, language]);
  const subscribedUrls = useMemo(() => new Set(subscribed.data), [subscribed.data]);
  const searching = query.trim() !== '';
  const category = categories.find((c) => c.id === categoryId) ?? null;

  // Focus follows the view: into a category lands on its back button, back lands on the tile it came from.
  useEffect(() => {
    if (category && !searching) backRef.current?.focus();
    else if (!category && returnTo.current) {
      tileRefs.current.get(returnTo.current)?.focus();
      returnTo.current = null;
    }
  }, [category, searching]);

  const stateOf = (feed: CatalogFeed): SubscribeState | undefined => states[feed.xmlUrl] ?? (subscribedUrls.has(feed.xmlUrl) ? 'subscribed' : undefined);

  const subscribe = async (feed: CatalogFeed) => {
    const added = await subscribeUrl(feed.xmlUrl);
    if (added) onSubscribed?.(added);
  };

  const openCategory = (id: string) => {
    setMessage(null);
    setCategoryId(id);
  };
  const back = () => {
    returnTo.current = categoryId;
    setMessage(null);
    setCategoryId(null);
  };

  // The catalog and its markers show together: while either answer is missing the tab is loading (or, once its
  // last try failed, offers to try again). A refetch after a subscribe keeps the markers there until the new answer.
  const missing = [catalog, subscribed].filter((q) => q.data === undefined);
  const failed = missing.filter((q) => q.isError);
  let body;
  if (failed.length === 0 && missing.length > 0) {
    body = (
      <div className="grid grid-cols-2 gap-2.5" aria-busy="true" aria-label={t('catalog.loading')}>
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className="h-20 rounded-xl" />
        ))}
      </div>
    );
  } else if (failed.length > 0) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <Alert tone="error">{t('catalog.loadError')}</Alert>
        <Button variant="secondary" size="sm" onClick={() => failed.forEach((q) => void q.refetch())}>
          {t('catalog.retry')}
        </Button>
      </div>
    );
  } else if (searching) {
    const hits = searchCatalog(categories, language, query);
    body = (
      <section aria-labelledby={ids.heading} className="flex min-h-0 flex-1 flex-col gap-2">
        <h3 id={ids.heading} role="status" className="text-sm text-muted">
          {t('catalog.results', { count: hits.length })}
        </h3>
        {hits.length === 0 ? (
          <p className="rounded-xl border border-dashed border-border px-4 py-6 text-center text-sm text-muted">{t('catalog.noResults')}</p>
        ) : (
          <FeedList>
            {hits.map(({ feed, category: c }) => (
              <CatalogRow key={feed.xmlUrl} feed={feed} note={categoryName(c)} state={stateOf(feed)} onSubscribe={() => void subscribe(feed)} />
            ))}
          </FeedList>
        )}
      </section>
    );
  } else if (category) {
    const list = filterFeeds(category.feeds, language);
    body = (
      <section aria-labelledby={ids.heading} className="flex min-h-0 flex-1 flex-col gap-2">
        <div className="flex items-center justify-between gap-3">
          <Button ref={backRef} variant="ghost" size="sm" onClick={back} className="-ml-2 min-h-10">
            <ArrowLeft aria-hidden className="size-4" />
            {t('catalog.back')}
          </Button>
          <p className="text-sm text-muted">{t('catalog.feedCount', { count: list.length })}</p>
        </div>
        <h3 id={ids.heading} className="text-base font-semibold text-text">
          {categoryName(category)}
        </h3>
        <FeedList>
          {list.map((feed) => (
            <CatalogRow key={feed.xmlUrl} feed={feed} state={stateOf(feed)} onSubscribe={() => void subscribe(feed)} />
          ))}
        </FeedList>
      </section>
    );
  } else {
    body = (
      <section aria-labelledby={ids.heading} className="min-h-0 flex-1 overflow-y-auto">
        <h3 id={ids.heading} className="sr-only">
          {t('catalog.categories')}
        </h3>
        <ul className="grid grid-cols-2 gap-2.5">
          {categories.map((c) => {
            const count = counts[c.id] ?? 0;
            return (
              <li key={c.id}>
                <button
                  type="button"
                  ref={(el) => {
                    if (el) tileRefs.current.set(c.id, el);
                    else tileRefs.current.delete(c.id);
                  }}
                  disabled={count === 0}
                  onClick={() => openCategory(c.id)}
                  className="group flex h-full min-h-20 w-full flex-col items-start justify-between gap-2 rounded-xl border border-border bg-surface px-3.5 py-3 text-left transition-colors hover:border-accent hover:bg-accent-soft/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 disabled:cursor-not-allowed disabled:opacity-50 disabled:hover:border-border disabled:hover:bg-surface"
                >
                  <span className="text-sm font-semibold leading-snug text-text">{categoryName(c)}</span>
                  <span className="flex w-full items-center justify-between text-xs text-muted">
                    {t('catalog.feedCount', { count })}
                    <ChevronRight aria-hidden className="size-4 text-muted transition-transform group-enabled:group-hover:translate-x-0.5" />
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-3">
      <div className="flex items-end gap-2">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <label htmlFor={ids.search} className="text-sm font-medium text-text">
            {t('catalog.searchLabel')}
          </label>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted" />
            <input
              id={ids.search}
              type="search"
              value={query}
              placeholder={t('catalog.searchPlaceholder')}
              onChange={(e) => {
                setQuery(e.target.value);
                setMessage(null);
              }}
              className="min-h-11 w-full rounded-lg border border-border-strong bg-surface pl-9 pr-3 text-base text-text placeholder:text-muted/70 max-sm:placeholder:text-transparent focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/40"
            />
          </div>
        </div>
        <div className="flex w-36 shrink-0 flex-col gap-1.5 sm:w-44">
          <label htmlFor={ids.language} className="text-sm font-medium text-text">
            {t('catalog.languageLabel')}
          </label>
          <select
            id={ids.language}
            value={language}
            onChange={(e) => setLanguage(e.target.value as CatalogLanguageFilter)}
            className="min-h-11 w-full rounded-lg border border-border-strong bg-surface px-3 text-base text-text focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/40"
          >
            {CATALOG_LANGUAGE_OPTIONS.map((option) => (
              <option key={option} value={option}>
                {t(`catalog.languages.${option}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {body}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </div>
  );
}

function FeedList({ children }: { children: ReactNode }) {
  return <ul className="min-h-0 flex-1 overflow-y-auto rounded-xl border border-border">{children}</ul>;
}

function CatalogRow({ feed, note, state, onSubscribe }: { feed: CatalogFeed; note?: string; state?: SubscribeState; onSubscribe(): void }) {
  const { t } = useTranslation();
  return (
    <li className="flex items-center gap-3 border-b border-border px-3.5 py-2.5 last:border-b-0">
      <FeedIcon feed={{ title: feed.title, favicon_base64: null, favicon_type: null }} size="md" />
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 break-words text-sm font-semibold text-text">{feed.title}</p>
        <p className="flex min-w-0 items-center gap-1.5 text-xs text-muted">
          {feed.language && (
            <abbr title={t(`catalog.languageNames.${feed.language}`)} className="shrink-0 rounded bg-surface-2 px-1 py-px font-medium no-underline">
              {feed.language}
            </abbr>
          )}
          {note && <span className="shrink-0">{note} ·</span>}
          <span className="truncate">{feed.xmlUrl}</span>
        </p>
      </div>
      <SubscribeButton title={feed.title} state={state} onSubscribe={onSubscribe} />
    </li>
  );
}
