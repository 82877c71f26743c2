import { AlertTriangle, BellOff, BellRing, ChevronDown, ChevronUp, Filter, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { memo, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SUCCESS_BANNER_MS } from '../../../../common/constants.js';
import { MAX_CUSTOM_TITLE_LENGTH } from '../../../../common/limits.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { TextField } from '../../../components/ui/TextField.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { feedTitle, useRefreshFeed, useSetAlwaysLoadOriginal, useSetCustomTitle, useUnmuteFeed } from '../api.js';
import { feedErrorText, formatDateTime, mutedNotice } from '../format.js';
import type { ManagedFeed } from '../health.js';
import { FeedActionsMenu } from './FeedActionsMenu.js';
import { FeedIcon } from './FeedIcon.js';

export interface FeedRowProps {
  feed: ManagedFeed;
  isFirst: boolean;
  isLast: boolean;
  /** False while the list is searched or filtered: the arrows move a feed among all feeds, so they wait. */
  movable?: boolean;
  /** Moves the feed one place up (-1) or down (+1). The handlers take the feed, so the page can pass the same ones to every row. */
  onMove(feed: ManagedFeed, delta: -1 | 1): void;
  onMute(feed: ManagedFeed): void;
  onFilters(feed: ManagedFeed): void;
  onDelete(feed: ManagedFeed): void;
}

const iconButton =
  'inline-flex size-10 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-text disabled:pointer-events-none disabled:opacity-30 lg:size-8';

/**
 * One feed on the management screen (dashboard.md §2 "Feed management screen", §4 "Feed edit"): reorder arrows
 * (the first cannot move up, the last cannot move down), icon, title, URL, mute notice, description, the last
 * refresh problem, then an unmute button for a muted feed or a filter button otherwise, and the actions menu.
 * Editing replaces the title with the custom-title form; saving shows a confirmation for 3 s. Below the text, the
 * feed's health (last fetch, next check, articles and unread, how often the refresh failed in a row) and the
 * "always load the original" switch (docs/decisions.md "Feed health in feed management"). Memoised: a long list
 * grows by a step of rows at a time, and the rows already there need not render again.
 */
export const FeedRow = memo(function FeedRow({ feed, isFirst, isLast, movable = true, onMove, onMute, onFilters, onDelete }: FeedRowProps) {
  const { t, i18n } = useTranslation();
  const unmute = useUnmuteFeed();
  const refresh = useRefreshFeed();
  const title = feedTitle(feed, t);
  const [editing, setEditing] = useState(false);
  const [notice, showNotice] = useTimedMessage(SUCCESS_BANNER_MS);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const muted = mutedNotice(feed, t, i18n.language);

  const run = async (action: () => Promise<void>, success: string | null, failure: string) => {
    setError(null);
    setBusy(true);
    try {
      await action();
      if (success) showNotice(success);
    } catch (err) {
      console.error('Feed action failed', err);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const actions = [
    feed.is_muted
      ? { label: t('feeds.page.unmute'), icon: BellRing, onSelect: () => void run(() => unmute.mutateAsync(feed.id), null, t('feeds.page.unmuteError')) }
      : { label: t('feeds.page.mute'), icon: BellOff, onSelect: () => onMute(feed) },
    { label: t('feeds.page.manageFilters'), icon: Filter, onSelect: () => onFilters(feed) },
    {
      label: t('feeds.page.edit'),
      icon: Pencil,
      onSelect: () => {
        setError(null);
        showNotice(null);
        setEditing(true);
      },
    },
    {
      label: t('feeds.page.refresh'),
      icon: RefreshCw,
      onSelect: () => void run(() => refresh.mutateAsync(feed.id), t('feeds.page.refreshing', { title }), t('feeds.page.refreshError', { title })),
    },
    { label: t('feeds.page.delete'), icon: Trash2, onSelect: () => onDelete(feed), danger: true },
  ];

  return (
    <li data-feed-id={feed.id} className={`flex gap-2 px-2 py-3 sm:gap-3 sm:px-4 ${feed.is_muted ? 'bg-surface-2/40' : ''}`}>
      <div className="flex shrink-0 flex-col items-center gap-0.5 lg:gap-1">
        <button
          type="button"
          data-move="up"
          className={iconButton}
          onClick={() => onMove(feed, -1)}
          disabled={isFirst || !movable}
          aria-label={t('feeds.page.moveUp', { title })}
        >
          <ChevronUp aria-hidden className="size-5" />
        </button>
        <button
          type="button"
          data-move="down"
          className={iconButton}
          onClick={() => onMove(feed, 1)}
          disabled={isLast || !movable}
          aria-label={t('feeds.page.moveDown', { title })}
        >
          <ChevronDown aria-hidden className="size-5" />
        </button>
      </div>

      {/* On phones the icon sits small beside the title, leaving the width to the text. */}
      <FeedIcon feed={{ ...feed, title }} size="md" className={`mt-1.5 max-sm:hidden ${feed.is_muted ? 'opacity-50 grayscale' : ''}`} />

      <div className="min-w-0 flex-1 pt-1">
        {editing ? (
          <EditTitleForm
            feed={feed}
            onCancel={() => setEditing(false)}
            onSaved={() => {
              setEditing(false);
              showNotice(t('feeds.edit.saved'));
            }}
          />
        ) : (
          <>
            <div className="flex items-start gap-2">
              <FeedIcon feed={{ ...feed, title }} className={`mt-[3px] sm:hidden ${feed.is_muted ? 'opacity-50 grayscale' : ''}`} />
              <h3 className={`min-w-0 break-words text-base font-semibold leading-snug ${feed.is_muted ? 'text-muted' : 'text-text'}`}>{title}</h3>
            </div>
            <p className="truncate text-sm text-muted" title={feed.url}>
              {feed.url}
            </p>
            {muted && (
              <p className="mt-1.5 flex w-fit items-center gap-1.5 rounded-md bg-surface-2 px-2 py-0.5 text-xs font-medium text-muted">
                <BellOff aria-hidden className="size-3.5 shrink-0" />
                {muted}
              </p>
            )}
            {feed.description && <p className="mt-1.5 line-clamp-2 max-w-prose text-sm leading-relaxed text-muted">{feed.description}</p>}
            <FeedHealth feed={feed} />
            {feed.last_error_code && (
              <p className="mt-1.5 flex items-start gap-1.5 text-sm text-warning">
                <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
                <span>
                  {t('feeds.page.lastError', { error: feedErrorText(feed.last_error_code, t, (k) => i18n.exists(k)) })}
                  {(feed.error_count ?? 0) > 1 && ` ${t('feeds.page.health.failedInARow', { count: feed.error_count })}`}
                </span>
              </p>
            )}
            <AlwaysLoadOriginal feed={feed} title={title} onError={setError} />
          </>
        )}
        {notice && (
          <Alert tone="success" className="mt-3">
            {notice}
          </Alert>
        )}
        {error && (
          <Alert tone="error" className="mt-3">
            {error}
          </Alert>
        )}
      </div>

      {!editing && (
        <div className="flex shrink-0 flex-col items-center gap-0.5 sm:flex-row sm:items-start sm:gap-1">
          {feed.is_muted ? (
            <button
              type="button"
              className={`${iconButton} lg:size-10`}
              disabled={busy}
              onClick={() => void run(() => unmute.mutateAsync(feed.id), null, t('feeds.page.unmuteError'))}
              aria-label={t('feeds.page.unmuteFeed', { title })}
              title={t('feeds.page.unmute')}
            >
              <BellRing aria-hidden className="size-5" />
            </button>
          ) : (
            <button
              type="button"
              className={`${iconButton} lg:size-10`}
              onClick={() => onFilters(feed)}
              aria-label={t('feeds.page.filtersFor', { title })}
              title={t('feeds.page.manageFilters')}
            >
              <Filter aria-hidden className="size-5" />
            </button>
          )}
          <FeedActionsMenu label={t('feeds.page.actions', { title })} actions={actions} />
        </div>
      )}
    </li>
  );
});

/**
 * One line of the feed's health: when it was last fetched (or that it has not been yet), when it is checked next,
 * and how many articles it has and how many of them are unread. Fields a server does not send are left out.
 */
function FeedHealth({ feed }: { feed: ManagedFeed }) {
  const { t, i18n } = useTranslation();
  const parts = [
    feed.last_fetched_at ? t('feeds.page.health.lastFetched', { time: formatDateTime(feed.last_fetched_at, i18n.language) }) : t('feeds.page.health.notFetched'),
    feed.next_check_at && !feed.is_muted ? t('feeds.page.health.nextCheck', { time: formatDateTime(feed.next_check_at, i18n.language) }) : null,
    feed.article_count !== undefined ? t('feeds.page.health.articles', { count: feed.article_count }) : null,
    feed.unread_count !== undefined ? t('feeds.page.health.unread', { count: feed.unread_count }) : null,
  ].filter((part): part is string => part !== null);
  return (
    <p data-testid="feed-health" className="mt-1.5 flex flex-wrap gap-x-2 text-xs text-muted">
      {parts.map((part, i) => (
        // The separator ends an item, so a wrapped line never starts with one.
        <span key={i} className="whitespace-nowrap">
          {part}
          {i < parts.length - 1 && (
            <span aria-hidden className="ml-2">
              ·
            </span>
          )}
        </span>
      ))}
    </p>
  );
}

/**
 * The feed's "always load the original" switch, explained in one line, small enough to sit in every row; a refusal
 * puts it back and says so. Named with the feed's title, since every row has one.
 */
function AlwaysLoadOriginal({ feed, title, onError }: { feed: ManagedFeed; title: string; onError(message: string | null): void }) {
  const { t } = useTranslation();
  const setAlways = useSetAlwaysLoadOriginal();
  const id = useId();
  const checked = feed.always_load_original ?? false;
  const toggle = () => {
    onError(null);
    setAlways.mutate(
      { id: feed.id, value: !checked },
      {
        onError: (err) => {
          console.error('Saving "always load the original" failed', err);
          onError(t('feeds.page.alwaysOriginalError', { title }));
        },
      },
    );
  };
  return (
    <div className="mt-2.5 flex items-start gap-2.5">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        disabled={setAlways.isPending}
        onClick={toggle}
        className={`relative mt-0.5 inline-flex h-5 w-9 shrink-0 items-center rounded-full border transition-colors focus-visible:outline-offset-2 disabled:opacity-60 ${
          checked ? 'border-accent bg-accent' : 'border-border-strong bg-surface-2'
        }`}
      >
        <span
          aria-hidden
          className={`inline-block size-3.5 rounded-full shadow-sm transition-transform ${checked ? 'translate-x-[1.125rem] bg-accent-fg' : 'translate-x-0.5 bg-surface ring-1 ring-border-strong'}`}
        />
      </button>
      <p className="min-w-0 text-sm leading-snug">
        <span id={`${id}-label`} className="cursor-pointer font-medium text-text" onClick={() => !setAlways.isPending && toggle()}>
          {t('feeds.page.alwaysOriginal')}
          <span className="sr-only">: {title}</span>
        </span>{' '}
        <span id={`${id}-hint`} className="text-muted">
          {t('feeds.page.alwaysOriginalHint')}
        </span>
      </p>
    </div>
  );
}

/** The inline custom-title form: the original title is shown; an empty title falls back to it (or "Unbenannter Feed"). */
function EditTitleForm({ feed, onCancel, onSaved }: { feed: ManagedFeed; onCancel(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const setCustomTitle = useSetCustomTitle();
  const [value, setValue] = useState(feed.custom_title ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const original = feed.original_title.trim() || t('feeds.unnamed');

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      await setCustomTitle.mutateAsync({ id: feed.id, title: value });
      onSaved();
    } catch (err) {
      console.error('Renaming the feed failed', err);
      setError(t('feeds.edit.error'));
      setSaving(false);
      inputRef.current?.focus();
    }
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onCancel();
        }
      }}
      className="flex flex-col gap-3"
    >
      <TextField
        ref={inputRef}
        label={t('feeds.edit.customTitle')}
        value={value}
        autoFocus
        maxLength={MAX_CUSTOM_TITLE_LENGTH}
        placeholder={original}
        hint={t('feeds.edit.originalTitle', { title: original })}
        error={error}
        onChange={(e) => setValue(e.target.value)}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={saving}>
          {t('feeds.edit.cancel')}
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? t('feeds.edit.saving') : t('feeds.edit.save')}
        </Button>
      </div>
    </form>
  );
}
