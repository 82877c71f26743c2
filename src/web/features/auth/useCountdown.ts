import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/**
 * Once `active`, counts `ms` down in whole seconds and then navigates to `to` (replacing the entry): the timed
 * redirects of public-area-and-api.md §9 (login 1.5 s, registration, verification and reset 5 s).
 * Returns the seconds left, for a visible countdown.
 */
export function useRedirectCountdown(active: boolean, ms: number, to: string): number {
  const navigate = useNavigate();
  const [left, setLeft] = useState(() => Math.ceil(ms / 1000));

  useEffect(() => {
    if (!active) return;
    const start = Date.now();
    setLeft(Math.ceil(ms / 1000));
    const tick = setInterval(() => setLeft(Math.max(0, Math.ceil((ms - (Date.now() - start)) / 1000))), 250);
    const done = setTimeout(() => navigate(to, { replace: true }), ms);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [active, ms, to, navigate]);

  return left;
}
