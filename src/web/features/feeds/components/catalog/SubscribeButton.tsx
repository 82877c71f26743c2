import { Check, Loader2, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../../components/ui/Button.js';

export type SubscribeState = 'subscribing' | 'subscribed';

/**
 * The subscribe button of a search result or catalog entry (dashboard.md §2 "Each entry has a subscribe button that
 * becomes a disabled 'subscribed' marker", §4 idle → subscribing → subscribed).
 */
export function SubscribeButton({ title, state, onSubscribe }: { title: string; state?: SubscribeState; onSubscribe(): void }) {
  const { t } = useTranslation();
  if (state === 'subscribed') {
    return (
      <span className="inline-flex min-h-10 shrink-0 items-center gap-1.5 rounded-lg px-3 text-sm font-medium text-success">
        <Check aria-hidden className="size-4" />
        {/* On a phone the check alone marks it, leaving the row's width to the title. */}
        <span className="max-sm:sr-only">{t('feeds.add.subscribed')}</span>
        <span className="sr-only">: {title}</span>
      </span>
    );
  }
  return (
    <Button
      size="sm"
      variant="secondary"
      onClick={onSubscribe}
      disabled={state === 'subscribing'}
      aria-label={state === 'subscribing' ? undefined : t('feeds.add.subscribeFeed', { title })}
      className="min-h-10 shrink-0"
    >
      {state === 'subscribing' ? <Loader2 aria-hidden className="size-4 animate-spin" /> : <Plus aria-hidden className="size-4" />}
      {/* On a phone the plus alone says it (its name is "Subscribe to …"), leaving the row's width to the title. */}
      <span className={state === 'subscribing' ? '' : 'max-sm:sr-only'}>{state === 'subscribing' ? t('feeds.add.subscribing') : t('feeds.add.subscribe')}</span>
    </Button>
  );
}
