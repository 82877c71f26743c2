import { useCallback, useRef, useState, type TouchEvent } from 'react';

/** How far (CSS pixels) a finger must travel sideways before a swipe acts when released. */
export const SWIPE_ACT_PX = 80;
/** Sideways travel that starts a swipe (below it the touch may still be a tap or a scroll). */
const SWIPE_START_PX = 12;
/** The card follows the finger at most this far. */
const SWIPE_MAX_PX = 140;

export type SwipeDirection = 'right' | 'left';

/**
 * A sideways swipe on a card (touch only; docs/decisions.md "Reading flow"): the card follows the finger while the
 * hint behind it says what a release will do, and a release past SWIPE_ACT_PX calls `onSwipe` with the direction.
 * A touch that moves up or down first is a scroll and is left alone; the card's `touch-action: pan-y` keeps the
 * browser from taking sideways moves for itself.
 */
export function useSwipe(onSwipe: (direction: SwipeDirection) => void) {
  const [offset, setOffsetState] = useState(0);
  const offsetRef = useRef(0);
  const setOffset = useCallback((value: number) => {
    offsetRef.current = value;
    setOffsetState(value);
  }, []);
  const start = useRef<{ x: number; y: number; mode: 'undecided' | 'swipe' | 'scroll' } | null>(null);

  const onTouchStart = useCallback((e: TouchEvent) => {
    if (e.touches.length !== 1) return;
    start.current = { x: e.touches[0].clientX, y: e.touches[0].clientY, mode: 'undecided' };
  }, []);

  const onTouchMove = useCallback(
    (e: TouchEvent) => {
      const s = start.current;
      if (!s || s.mode === 'scroll' || e.touches.length !== 1) return;
      const dx = e.touches[0].clientX - s.x;
      const dy = e.touches[0].clientY - s.y;
      if (s.mode === 'undecided') {
        if (Math.abs(dy) > SWIPE_START_PX && Math.abs(dy) >= Math.abs(dx)) {
          s.mode = 'scroll';
          return;
        }
        if (Math.abs(dx) < SWIPE_START_PX || Math.abs(dx) < Math.abs(dy) * 1.5) return;
        s.mode = 'swipe';
      }
      setOffset(Math.max(-SWIPE_MAX_PX, Math.min(SWIPE_MAX_PX, dx)));
    },
    [setOffset],
  );

  const finish = useCallback(
    (act: boolean) => {
      const s = start.current;
      start.current = null;
      const current = offsetRef.current;
      setOffset(0);
      if (act && s?.mode === 'swipe' && Math.abs(current) >= SWIPE_ACT_PX) onSwipe(current > 0 ? 'right' : 'left');
    },
    [onSwipe, setOffset],
  );

  const onTouchEnd = useCallback(() => finish(true), [finish]);
  const onTouchCancel = useCallback(() => finish(false), [finish]);

  return { offset, handlers: { onTouchStart, onTouchMove, onTouchEnd, onTouchCancel } };
}
