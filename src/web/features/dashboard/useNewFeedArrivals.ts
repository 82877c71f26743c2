import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { announce } from '../../lib/mutations.js';
import { feedSummariesKey, useFeedSummaries } from '../feeds/index.js';

/** How often the feed list is asked again while a new feed waits for its first fetch. */
export const FIRST_FETCH_POLL_MS = 2000;
/** A feed that has not been fetched after this long is left to the list's normal 30 s poll. */
const FIRST_FETCH_WAIT_MS = 60_000;

/**
 * A feed just subscribed to is fetched by the server a moment later ("its first articles arrive in a moment").
 * While any feed has never been fetched (and has no error), the feed list is asked again every 2 s; when such a
 * feed has its first fetch, the article list and the unread counts are told at once (§7 force-article-update,
 * force-unread-update), so a new reader sees the articles without waiting for the 30 s poll.
 */
export function useNewFeedArrivals(): void {
  const client = useQueryClient();
  const feeds = useFeedSummaries();
  const list = feeds.data;
  const waiting = (list ?? []).filter((f) => !f.fetched && !f.last_error_code).map((f) => f.id);
  const fetched = (list ?? []).filter((f) => f.fetched).map((f) => f.id);
  // Both lists as text decide when the effect runs; the arrays themselves are new on every render.
  const waitingKey = waiting.join(',');
  const fetchedKey = fetched.join(',');
  const previous = useRef<{ waiting: Set<number>; known: Set<number> | null }>({ waiting: new Set(), known: null });

  useEffect(() => {
    if (!list) return;
    const now = new Set(waiting);
    const { waiting: before, known } = previous.current;
    // A feed arrives when it was waiting and now is fetched, or when it shows up already fetched: the server may
    // fetch a new subscription before the feed list is asked again, and then it is never seen waiting.
    const arrived = [...before].some((id) => !now.has(id) && list.some((f) => f.id === id)) || (known !== null && fetched.some((id) => !known.has(id)));
    previous.current = { waiting: now, known: new Set(list.map((f) => f.id)) };
    if (arrived) {
      announce(['articles', 'counts']);
    }
    if (!now.size) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started > FIRST_FETCH_WAIT_MS) return clearInterval(timer);
      void client.invalidateQueries({ queryKey: feedSummariesKey });
    }, FIRST_FETCH_POLL_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waitingKey, fetchedKey, client]);
}
