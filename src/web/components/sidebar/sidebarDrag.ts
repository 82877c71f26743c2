import { KeyboardSensor, PointerSensor, TouchSensor, useSensor, useSensors, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { useEffect, useMemo, useRef, type PointerEvent as ReactPointerEvent } from 'react';

/** §4 "Folders" / §9: a touch drag starts after holding 300 ms; a finger that moves more than 10 px before that is scrolling. */
export const TOUCH_HOLD_MS = 300;
export const TOUCH_TOLERANCE_PX = 10;
/** A mouse (or pen) drag starts after 6 px, so a click still opens the row's link (or toggles the folder). */
export const MOUSE_DRAG_DISTANCE_PX = 6;

/**
 * The mouse (and pen) side of the pointer: touch is left to the TouchSensor with its hold, so a finger on the list
 * scrolls it as on any page (dashboard.md §9) instead of dragging at the first move.
 */
export class MouseAndPenSensor extends PointerSensor {
  static override activators = [
    {
      eventName: 'onPointerDown' as const,
      handler: (event: ReactPointerEvent, options: Parameters<(typeof PointerSensor.activators)[0]['handler']>[1]) =>
        event.nativeEvent.pointerType !== 'touch' && PointerSensor.activators[0].handler(event, options),
    },
  ];
}

/**
 * The sensors of the sidebar's drag and drop, the same for the feed tree and the reading lists: mouse and pen after
 * 6 px, touch after the 300 ms hold, and the keyboard (space, arrows, space) moving by `coordinateGetter`.
 */
export function useSidebarDragSensors(coordinateGetter: KeyboardCoordinateGetter = sortableKeyboardCoordinates) {
  return useSensors(
    useSensor(MouseAndPenSensor, { activationConstraint: { distance: MOUSE_DRAG_DISTANCE_PX } }),
    useSensor(TouchSensor, { activationConstraint: { delay: TOUCH_HOLD_MS, tolerance: TOUCH_TOLERANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );
}

/**
 * The click that ends a mouse drag is not a visit. dnd-kit stops that click at the document (capture), so React's
 * handlers never see it, yet the browser would still follow the row's link; a capture listener on the window runs
 * first and cancels it. The click comes in the same task as the release, so clicks count again right after: at the
 * next task, or at the next press if that comes first (a browser busy rendering the drop may run the user's next
 * press before a timer). `dragging.current` is true from `started()` until then (the feed tree also stops the click
 * from toggling a folder with it).
 */
export function useDragEndClickGuard() {
  const dragging = useRef(false);
  const ending = useRef(false);
  useEffect(() => {
    const onClick = (e: MouseEvent) => dragging.current && e.preventDefault();
    const onPress = () => {
      if (ending.current) dragging.current = ending.current = false;
    };
    window.addEventListener('click', onClick, true);
    window.addEventListener('pointerdown', onPress, true);
    return () => {
      window.removeEventListener('click', onClick, true);
      window.removeEventListener('pointerdown', onPress, true);
    };
  }, []);
  return useMemo(
    () => ({
      dragging,
      started: () => {
        dragging.current = true;
        ending.current = false;
      },
      finished: () => {
        ending.current = true;
        setTimeout(() => {
          if (ending.current) dragging.current = ending.current = false;
        }, 0);
      },
    }),
    [],
  );
}
