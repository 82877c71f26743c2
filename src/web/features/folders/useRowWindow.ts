import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Which rows of a long list of fixed-height rows are near the view (docs/decisions.md "Sidebar at scale"): the list
 * sits somewhere inside a scrolling ancestor (the sidebar's navigation scrolls as a whole), so the window is where
 * that ancestor's view crosses the list, widened by `overscan` rows on each side. Without a measurable view (a test
 * document has no layout) the first `fallbackRows` are shown.
 */
export function useRowWindow(listRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan = 8, fallbackRows = 60): { first: number; last: number } {
  const [range, setRange] = useState({ first: 0, last: Math.min(count, fallbackRows) });

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const scroller = scrollParent(list);
    let frame = 0;
    const update = () => {
      frame = 0;
      const view = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: globalThis.innerHeight ?? 0 };
      const box = list.getBoundingClientRect();
      const height = view.bottom - view.top;
      let first: number;
      let last: number;
      if (height <= 0) {
        first = 0;
        last = fallbackRows;
      } else {
        first = Math.floor((view.top - box.top) / rowHeight) - overscan;
        last = Math.ceil((view.bottom - box.top) / rowHeight) + overscan;
      }
      first = Math.max(0, Math.min(first, count));
      last = Math.max(first, Math.min(last, count));
      setRange((r) => (r.first === first && r.last === last ? r : { first, last }));
    };
    update();
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    const target: EventTarget = scroller ?? globalThis;
    target.addEventListener('scroll', onScroll, { passive: true });
    globalThis.addEventListener('resize', onScroll);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(onScroll);
    if (scroller) observer?.observe(scroller);
    return () => {
      target.removeEventListener('scroll', onScroll);
      globalThis.removeEventListener('resize', onScroll);
      observer?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [listRef, count, rowHeight, overscan, fallbackRows]);

  // A list that shrank below the window keeps a window inside it.
  useEffect(() => {
    setRange((r) => (r.last <= count ? r : { first: Math.min(r.first, count), last: count }));
  }, [count]);

  return range;
}

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}
