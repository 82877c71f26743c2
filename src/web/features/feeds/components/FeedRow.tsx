import { AlertTriangle, BellOff, BellRing, ChevronDown, ChevronUp, Filter, Pencil, RefreshCw, Trash2 } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Feed } from '../../../../common/api.js';
import { SUCCESS_BANNER_MS } from '../../../../common/constants.js';
import { MAX_CUSTOM_TITLE_LENGTH } from '../../../../common/limits.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { TextField } from '../../../components/ui/TextField.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { feedTitle, useRefreshFeed, useSetCustomTitle, useUnmuteFeed } from '../api.js';
import { feedErrorText, mutedNotice } from '../format.js';
import { FeedActionsMenu } from './FeedActionsMenu.js';
import { FeedIcon } from './FeedIcon.js';

export interface FeedRowProps {
  feed: Feed;
  isFirst: boolean;
  isLast: boolean;
  /** Moves the feed one place up (-1) or down (+1). */
  onMove(delta: -1 | 1): void;
  onMute(): void;
  onFilters(): void;
  onDelete(): void;
}

const iconButton =
  'inline-flex size-10 items-center justify-center rounded-lg text-muted transition-colors hover:bg-surface-2 hover:text-text disabled:pointer-events-none disabled:opacity-30 lg:size-8';

/**
 * One feed on the management screen (dashboard.md §2 "Feed management screen", §4 "Feed edit"): reorder arrows
 * (the first cannot move up, the last cannot move down), icon, title, URL, mute notice, description, the last
 * refresh problem, then an unmute button for a muted feed or a filter button otherwise, and the actions menu.
 * Editing replaces the title with the custom-title form; saving shows a confirmation for 3 s.
 */
export function FeedRow({ feed, isFirst, isLast, onMove, onMute, onFilters, onDelete }: FeedRowProps) {
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
      : { label: t('feeds.page.mute'), icon: BellOff, onSelect: onMute },
    { label: t('feeds.page.manageFilters'), icon: Filter, onSelect: onFilters },
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
    { label: t('feeds.page.delete'), icon: Trash2, onSelect: onDelete, danger: true },
  ];

  return (
    <li data-feed-id={feed.id} className={`flex gap-2 px-2 py-3 sm:gap-3 sm:px-4 ${feed.is_muted ? 'bg-surface-2/40' : ''}`}>
      <div className="flex shrink-0 flex-col items-center gap-0.5 lg:gap-1">
        <button type="button" data-move="up" className={iconButton} onClick={() => onMove(-1)} disabled={isFirst} aria-label={t('feeds.page.moveUp', { title })}>
          <ChevronUp aria-hidden className="size-5" />
        </button>
        <button type="button" data-move="down" className={iconButton} onClick={() => onMove(1)} disabled={isLast} aria-label={t('feeds.page.moveDown', { title })}>
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
            {feed.last_error_code && (
              <p className="mt-1.5 flex items-start gap-1.5 text-sm text-warning">
                <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
                <span>{t('feeds.page.lastError', { error: feedErrorText(feed.last_error_code, t, (k) => i18n.exists(k)) })}</span>
              </p>
            )}
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
              onClick={onFilters}
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
}

/** The inline custom-title form: the original title is shown; an empty title falls back to it (or "Unbenannter Feed"). */
function EditTitleForm({ feed, onCancel, onSaved }: { feed: Feed; onCancel(): void; onSaved(): void }) {
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
