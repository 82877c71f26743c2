import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * A message that clears itself after `ms` (dashboard.md §9: the name, password and feed-edit messages last 3 s;
 * the article list's action errors 5 s). Showing a new message restarts the timer; unmounting cancels it.
 */
export function useTimedMessage(ms: number): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const show = useCallback(
    (next: string | null) => {
      clearTimeout(timer.current);
      setMessage(next);
      if (next !== null) timer.current = setTimeout(() => setMessage(null), ms);
    },
    [ms],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return [message, show];
}
