import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A message that clears itself after `ms` (dashboard.md §9: the name, password and feed-edit messages last 3 s;
 * the article list's action errors 5 s). Showing a new message restarts the timer; unmounting cancels it.
 * The message is text unless the caller names another type (a tone with its text, say).
 */
export function useTimedMessage<T = string>(ms: number): [T | null, (message: T | null) => void] {
  const [message, setMessage] = useState<T | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (next: T | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
