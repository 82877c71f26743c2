import { ArrowLeft, LayoutGrid, Loader2, Search } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AddFeedResponse, SearchFeedResult } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { Modal } from '../../../components/ui/Modal.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { searchFeeds } from '../api.js';
import { CatalogTab } from './catalog/CatalogTab.js';
import { SubscribeButton, useSubscribe, type SubscribeState } from './catalog/SubscribeButton.js';
import { FeedIcon } from './FeedIcon.js';

export interface AddFeedDialogProps {
  open: boolean;
  onClose(): void;
  /** Called after a successful subscription, before the dialog closes (e.g. to show a confirmation). */
  onSubscribed?(feed: AddFeedResponse): void;
}

/**
 * The add-feed dialog (dashboard.md §2 "Add-feed dialog", §4, §5, §8), 650 px high, with two tabs:
 * - Search: a URL (Enter searches), an examples hint, the results (at most 24rem high, with a back button), each
 *   with subscribe → subscribing → subscribed. When a page offers several feeds the dialog stays open until every
 *   one is subscribed (or "Done" is pressed), so a second feed needs no second search (docs/decisions.md
 *   "Discovery offering several feeds"); the last feed left to subscribe closes it, as a single result does.
 * - Feed catalog (catalog/CatalogTab.tsx): subscribing from the catalog keeps the dialog open.
 * The tabs follow the WAI-ARIA tabs pattern (arrow keys, Home, End; the inactive tab is out of the tab order). Both
 * panels stay mounted once shown, so switching tabs keeps what was typed. All state lives in the body, which the modal
 * unmounts when it closes, so the dialog always opens fresh (§4 "resets its state on close").
 */
export function AddFeedDialog({ open, onClose, onSubscribed }: AddFeedDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('feeds.add.title')}
      // text-left: the dialog also opens from centred screens (the welcome empty state) and must not inherit them.
      className="text-left max-sm:mb-0 max-sm:w-full max-sm:max-w-full max-sm:rounded-b-none sm:w-[min(100vw-2rem,38rem)]"
    >
      <AddFeedBody onClose={onClose} onSubscribed={onSubscribed} />
    </Modal>
  );
}

type Tab = 'search' | 'catalog';
const TABS: readonly Tab[] = ['search', 'catalog'];

function AddFeedBody({ onClose, onSubscribed }: Omit<AddFeedDialogProps, 'open'>) {
  const { t } = useTranslation();
  const tabId = useId();
  const [tab, setTab] = useState<Tab>('search');
  const [catalogShown, setCatalogShown] = useState(false);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  const select = (next: Tab, focus = false) => {
    setTab(next);
    if (next === 'catalog') setCatalogShown(true);
    if (focus) tabRefs.current.get(next)?.focus();
  };
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.indexOf(tab);
    const next =
      e.key === 'ArrowRight'
        ? TABS[(i + 1) % TABS.length]
        : e.key === 'ArrowLeft'
          ? TABS[(i + TABS.length - 1) % TABS.length]
          : e.key === 'Home'
            ? TABS[0]
            : e.key === 'End'
              ? TABS[TABS.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    select(next, true);
  };
  const labels: Record<Tab, { text: string; icon: typeof Search }> = {
    search: { text: t('feeds.add.tabSearch'), icon: Search },
    catalog: { text: t('catalog.tab'), icon: LayoutGrid },
  };

  return (
    <div className="flex h-[min(650px,calc(100dvh-6rem))] flex-col px-5 pb-5">
      <div role="tablist" aria-label={t('feeds.add.tabs')} className="mb-4 flex gap-1 border-b border-border">
        {TABS.map((name) => {
          const { text, icon: Icon } = labels[name];
          const selected = tab === name;
          return (
            <button
              key={name}
              ref={(el) => {
                if (el) tabRefs.current.set(name, el);
              }}
              type="button"
              role="tab"
              id={`${tabId}-${name}-tab`}
              aria-selected={selected}
              aria-controls={`${tabId}-${name}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(name)}
              onKeyDown={onTabKey}
              className={`-mb-px inline-flex min-h-10 items-center gap-2 border-b-2 px-3 text-sm transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-accent/40 ${
                selected ? 'border-accent font-semibold text-text' : 'border-transparent font-medium text-muted hover:text-text'
              }`}
            >
              <Icon aria-hidden className="size-4" />
              {text}
            </button>
          );
        })}
      </div>

      <div role="tabpanel" id={`${tabId}-search-panel`} aria-labelledby={`${tabId}-search-tab`} hidden={tab !== 'search'} className="flex min-h-0 flex-1 flex-col gap-4">
        <SearchPanel onClose={onClose} onSubscribed={onSubscribed} />
      </div>
      <div role="tabpanel" id={`${tabId}-catalog-panel`} aria-labelledby={`${tabId}-catalog-tab`} hidden={tab !== 'catalog'} className="flex min-h-0 flex-1 flex-col">
        {catalogShown && <CatalogTab onSubscribed={onSubscribed} />}
      </div>
    </div>
  );
}

function SearchPanel({ onClose, onSubscribed }: Omit<AddFeedDialogProps, 'open'>) {
  const { t, i18n } = useTranslation();
  const [url, setUrl] = useState('');
  const [searching, setSearching] = useState(false);
  const [results, setResults] = useState<SearchFeedResult[] | null>(null);
  const { states, setStates, message, setMessage, subscribe } = useSubscribe();
  const inputRef = useRef<HTMLInputElement>(null);
  const [fieldError, setFieldError] = useState<string | null>(null);
  /** Feeds subscribed from these results while the dialog stays open (several on offer). */
  const [added, setAdded] = useState(0);

  const onSearch = async (e: FormEvent) => {
    e.preventDefault();
    setMessage(null);
    if (!url.trim()) {
      setFieldError(t('feeds.add.emptyUrl'));
      inputRef.current?.focus();
      return;
    }
    setSearching(true);
    try {
      const found = await searchFeeds(url);
      if (found.length === 0) {
        setMessage({ tone: 'warning', text: t('feeds.add.noFeedsFound') });
      } else {
        setStates(Object.fromEntries(found.filter((f) => f.subscribed).map((f) => [f.url, 'subscribed' as const])));
        setResults(found);
      }
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      const key = status === 400 ? 'feeds.add.invalidUrl' : status === 404 ? 'feeds.add.notFound' : 'feeds.add.searchError';
      // For other failures the site's problem (unreachable, private network, broken feed, …) is added when known.
      const reason = key === 'feeds.add.searchError' && err instanceof ApiError && err.code ? `feedErrors.${err.code}` : null;
      setMessage({ tone: 'error', text: reason && i18n.exists(reason) ? `${t(key)} ${t(reason)}` : t(key) });
    } finally {
      setSearching(false);
    }
  };

  const onSubscribe = async (result: SearchFeedResult) => {
    if (!result.url.trim()) {
      setMessage({ tone: 'error', text: t('feeds.add.emptyUrl') });
      return;
    }
    const feed = await subscribe(result.url);
    if (!feed) return;
    onSubscribed?.(feed);
    const left = (results ?? []).filter((r) => r.url !== result.url && states[r.url] !== 'subscribed');
    if (left.length === 0) {
      onClose();
      return;
    }
    setAdded((n) => n + 1);
  };

  const back = () => {
    setResults(null);
    setMessage(null);
    setStates({});
    setAdded(0);
    requestAnimationFrame(() => inputRef.current?.focus());
  };

  return (
    <>
      {results === null ? (
        <form noValidate onSubmit={onSearch} className="flex flex-col gap-3">
          <TextField
            ref={inputRef}
            label={t('feeds.add.urlLabel')}
            type="url"
            inputMode="url"
            autoComplete="url"
            autoFocus
            placeholder={t('feeds.add.urlPlaceholder')}
            value={url}
            error={fieldError}
            hint={t('feeds.add.examples')}
            onChange={(e) => {
              setUrl(e.target.value);
              setFieldError(null);
            }}
          />
          <div className="flex justify-end">
            <Button type="submit" disabled={searching} className="w-full sm:w-auto">
              {searching ? <Loader2 aria-hidden className="size-4 animate-spin" /> : <Search aria-hidden className="size-4" />}
              {searching ? t('feeds.add.searching') : t('feeds.add.search')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex min-h-0 flex-col gap-3">
          <div className="flex items-center justify-between gap-3">
            <Button variant="ghost" size="sm" onClick={back} className="-ml-2">
              <ArrowLeft aria-hidden className="size-4" />
              {t('feeds.add.back')}
            </Button>
            <p role="status" className="text-sm text-muted">
              {t('feeds.add.results', { count: results.length })}
            </p>
          </div>
          {results.length > 1 && <p className="text-sm text-muted">{t('feeds.add.severalHint')}</p>}
          <ul className="max-h-96 overflow-y-auto rounded-xl border border-border" aria-label={t('feeds.add.results', { count: results.length })}>
            {results.map((result) => (
              <ResultRow key={result.url} result={result} state={states[result.url]} onSubscribe={() => void onSubscribe(result)} />
            ))}
          </ul>
          {added > 0 && (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <p role="status" className="text-sm font-medium text-success">
                {t('feeds.add.addedCount', { count: added })}
              </p>
              <Button onClick={onClose} className="w-full sm:w-auto">
                {t('feeds.add.done')}
              </Button>
            </div>
          )}
        </div>
      )}
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </>
  );
}

function ResultRow({ result, state, onSubscribe }: { result: SearchFeedResult; state?: SubscribeState; onSubscribe(): void }) {
  const { t } = useTranslation();
  const title = result.title.trim() || t('feeds.unnamed');
  return (
    <li className="flex items-center gap-3 border-b border-border px-3.5 py-3 last:border-b-0">
      <FeedIcon feed={{ title, favicon_base64: null, favicon_type: null }} size="md" />
      <div className="min-w-0 flex-1">
        <p className="line-clamp-2 break-words text-sm font-semibold text-text">{title}</p>
        <p className="truncate text-xs text-muted">{result.url}</p>
      </div>
      <SubscribeButton title={title} state={state} onSubscribe={onSubscribe} />
    </li>
  );
}
