import { useCallback, useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('scroll', onChange, { passive: true });
  window.addEventListener('resize', onChange);
  return () => {
    window.removeEventListener('scroll', onChange);
    window.removeEventListener('resize', onChange);
  };
}

/**
 * True once the page is scrolled more than `px` pixels (strictly more, public-area-and-api.md §9:
 * "header turns solid after scrolling more than 10 pixels"). A store subscription, so it is right on the
 * first render after a reload that restores the scroll position too.
 */
export function useScrolledPast(px: number): boolean {
  const getSnapshot = useCallback(() => (typeof window === 'undefined' ? false : window.scrollY > px), [px]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
