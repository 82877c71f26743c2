import { KeyboardSensor, PointerSensor, TouchSensor, useSensor, useSensors, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import type { PointerEvent as ReactPointerEvent } from 'react';

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
        event.nativeEvent.pointerType !== 'touch' && PointerSensor.activators[0]!.handler(event, options),
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
