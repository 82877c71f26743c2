import { Eye, EyeOff, Search, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useReadingState } from '../readingState.js';

/** §9: the search runs 300 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The top bar's tools on /dashboard (dashboard.md §2): the article search and the read/unread toggle.
 * The search lives in the address (?q=…), so a search can be linked, reloaded and left with Back; it runs only
 * for text that is not blank, at once on Enter, and clearing the box returns to the view it started from
 * (a feed view keeps its ?feed=, and the search covers that feed only).
 * Below the sm breakpoint the box folds into a search button that opens it in place of the page title.
 */
export function ArticleTools() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const urlQuery = params.get('q') ?? '';
  const [text, setText] = useState(urlQuery);
  const [expanded, setExpanded] = useState(Boolean(urlQuery));
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { showRead, toggleShowRead, registerSearch } = useReadingState();

  // The address changed elsewhere (a sidebar link, Back): the box follows.
  useEffect(() => {
    setText(urlQuery);
    if (urlQuery) setExpanded(true);
  }, [urlQuery]);

  const apply = useCallback(
    (value: string) => {
      clearTimeout(timer.current);
      const q = value.trim();
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (q) next.set('q', q);
          else next.delete('q');
          return next;
        },
        // Typing replaces the entry; starting or leaving a search makes one, so Back returns to the view.
        { replace: Boolean(q) && Boolean(urlQuery) },
      );
    },
    [setParams, urlQuery],
  );

  const onChange = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    if (!value.trim()) {
      // Clearing returns to the view straight away; blank text never searches.
      if (urlQuery) apply('');
      return;
    }
    timer.current = setTimeout(() => apply(value), SEARCH_DEBOUNCE_MS);
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  useEffect(() => {
    registerSearch(() => {
      setExpanded(true);
      // The input may only now become visible.
      requestAnimationFrame(() => inputRef.current?.focus());
      inputRef.current?.focus();
    });
    return () => registerSearch(null);
  }, [registerSearch]);

  const readLabel = showRead ? t('articles.tools.hideRead') : t('articles.tools.showRead');

  return (
    <div className="flex items-center gap-1.5">
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) apply(text);
        }}
        className={`${expanded ? 'absolute inset-x-0 top-0 z-10 flex h-14 items-center gap-1 bg-bg px-3' : 'hidden'} sm:static sm:flex sm:h-auto sm:bg-transparent sm:p-0`}
      >
        <div className="relative flex-1">
          <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted" />
          <input
            ref={inputRef}
            id="article-search"
            type="search"
            value={text}
            onChange={(e) => onChange(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                if (text) onChange('');
                else {
                  setExpanded(false);
                  inputRef.current?.blur();
                }
              }
            }}
            placeholder={t('articles.tools.searchPlaceholder')}
            aria-label={t('articles.tools.search')}
            enterKeyHint="search"
            className="min-h-10 w-full rounded-lg border border-border bg-surface pl-9 pr-3 text-[0.9375rem] text-text placeholder:text-muted/80 focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent/30 sm:w-56 lg:w-72 [&::-webkit-search-cancel-button]:cursor-pointer"
          />
        </div>
        <button
          type="button"
          onClick={() => {
            onChange('');
            setExpanded(false);
          }}
          aria-label={t('articles.tools.closeSearch')}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text sm:hidden"
        >
          <X aria-hidden className="size-5" />
        </button>
      </form>
      <button
        type="button"
        onClick={() => {
          setExpanded(true);
          requestAnimationFrame(() => inputRef.current?.focus());
        }}
        aria-label={t('articles.tools.search')}
        className="inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-text sm:hidden"
      >
        <Search aria-hidden className="size-5" />
      </button>
      <button
        type="button"
        onClick={toggleShowRead}
        aria-pressed={showRead}
        aria-label={t('articles.tools.showRead')}
        title={readLabel}
        className={`inline-flex min-h-10 min-w-10 items-center justify-center gap-2 rounded-lg px-2 text-sm font-medium transition-colors hover:bg-surface-2 xl:px-3 ${
          showRead ? 'text-accent' : 'text-muted hover:text-text'
        }`}
      >
        {showRead ? <Eye aria-hidden className="size-5" /> : <EyeOff aria-hidden className="size-5" />}
        <span className="hidden xl:inline">{t('articles.tools.showReadShort')}</span>
      </button>
    </div>
  );
}
