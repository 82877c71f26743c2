import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Article } from '../../../common/api.js';

/** From this many loaded articles on (five pages), cards far off screen give way to spacers. */
export const WINDOW_FROM = 100;
/** How far beyond the window (in window heights, above and below) cards stay rendered. */
const OVERSCAN_SCREENS = 2;
/** The height assumed for a card never measured (one that arrived above by the poll while off screen). */
const ESTIMATED_CARD_PX = 180;

/**
 * Keeps a long article list light (docs/decisions.md "Reading flow"): once WINDOW_FROM articles are loaded, only the
 * cards within two window heights of the visible part are rendered; the others are replaced by spacers of their
 * measured height, so the page keeps its length and nothing moves. Every card is measured after each render while it
 * is rendered; `pinned` (the selected card) is always rendered, so keyboard navigation and focus keep working.
 * Returns whether the card at an index is rendered and the height of a spacer.
 */
export function useWindowedList(articles: Article[], listRef: RefObject<HTMLElement | null>, cardRefs: RefObject<Map<number, HTMLElement>>, pinned: number | null) {
  const heights = useRef(new Map<number, number>());
  const [range, setRange] = useState<[number, number] | null>(null);
  const articlesRef = useRef(articles);
  articlesRef.current = articles;

  // Measure what is rendered (a card's height changes when it is expanded or its images load).
  useLayoutEffect(() => {
    for (const [id, el] of cardRefs.current) {
      const h = el.offsetHeight;
      if (h > 0) heights.current.set(id, h);
    }
  });

  const compute = useCallback(() => {
    const list = articlesRef.current;
    const root = listRef.current;
    if (list.length < WINDOW_FROM || !root || typeof window === 'undefined') {
      setRange((r) => (r === null ? r : null));
      return;
    }
    const overscan = window.innerHeight * OVERSCAN_SCREENS;
    const top = window.scrollY - overscan;
    const bottom = window.scrollY + window.innerHeight + overscan;
    let y = root.getBoundingClientRect().top + window.scrollY;
    let from = -1;
    let to = list.length - 1;
    for (let i = 0; i < list.length; i++) {
      const h = heights.current.get(list[i].id) ?? ESTIMATED_CARD_PX;
      if (from === -1 && y + h >= top) from = i;
      if (y > bottom) {
        to = i - 1;
        break;
      }
      y += h;
    }
    const next: [number, number] = [Math.max(0, from === -1 ? list.length - 1 : from), Math.max(to, 0)];
    setRange((r) => (r && r[0] === next[0] && r[1] === next[1] ? r : next));
  }, [listRef]);

  useEffect(() => {
    compute();
  }, [articles, compute]);

  useEffect(() => {
    // One computation per frame however many scroll events arrive (a timer where there are no frames).
    let frame: ReturnType<typeof setTimeout> | undefined;
    const onChange = () => {
      if (frame === undefined) frame = setTimeout(() => ((frame = undefined), compute()), 16);
    };
    window.addEventListener('scroll', onChange, { passive: true });
    window.addEventListener('resize', onChange);
    return () => {
      clearTimeout(frame);
      window.removeEventListener('scroll', onChange);
      window.removeEventListener('resize', onChange);
    };
  }, [compute]);

  const isRendered = useCallback(
    (index: number, id: number) => range === null || id === pinned || (index >= range[0] && index <= range[1]) || !heights.current.has(id),
    [range, pinned],
  );
  const heightOf = useCallback((id: number) => heights.current.get(id) ?? ESTIMATED_CARD_PX, []);
  return { isRendered, heightOf, windowed: range !== null };
}
