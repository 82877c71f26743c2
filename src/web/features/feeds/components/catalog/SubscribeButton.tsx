import { Check, Loader2, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AddFeedResponse } from '../../../../../common/api.js';
import type { AlertTone } from '../../../../components/ui/Alert.js';
import { Button } from '../../../../components/ui/Button.js';
import { ApiError } from '../../../../lib/api.js';
import { useAddFeed } from '../../api.js';

export type SubscribeState = 'subscribing' | 'subscribed';

/** The message above a list of feeds to subscribe to. */
export interface SubscribeMessage {
  tone: AlertTone;
  text: string;
}

/**
 * Subscribing from a list of feeds, the search results or the catalog (dashboard.md §4 idle → subscribing →
 * subscribed, §8 "Subscribe"): `subscribe(url)` resolves to the new feed, or to null after a failure, which it has
 * already told: a 409 marks the entry subscribed with the "already subscribed" info, anything else puts its button
 * back with the invalid-URL (400) or the add error.
 */
export function useSubscribe() {
  const { t } = useTranslation();
  const addFeed = useAddFeed();
  const [states, setStates] = useState<Record<string, SubscribeState>>({});
  const [message, setMessage] = useState<SubscribeMessage | null>(null);

  const subscribe = async (url: string): Promise<AddFeedResponse | null> => {
    setMessage(null);
    setStates((s) => ({ ...s, [url]: 'subscribing' }));
    try {
      const added = await addFeed.mutateAsync(url);
      setStates((s) => ({ ...s, [url]: 'subscribed' }));
      return added;
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 409) {
        setStates((s) => ({ ...s, [url]: 'subscribed' }));
        setMessage({ tone: 'info', text: t('feeds.add.feedExists') });
        return null;
      }
      setStates(({ [url]: _, ...rest }) => rest);
      setMessage({ tone: 'error', text: t(status === 400 ? 'feeds.add.invalidUrl' : 'feeds.add.addError') });
      return null;
    }
  };

  return { states, setStates, message, setMessage, subscribe };
}

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
