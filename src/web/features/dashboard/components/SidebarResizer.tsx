import { useEffect, useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { storage } from '../../../lib/storage.js';

/** The sidebar's width on wide screens (dashboard.md §2 "Sidebar"; docs/decisions.md "Sidebar at scale"). */
export const SIDEBAR_DEFAULT_PX = 256;
export const SIDEBAR_MIN_PX = 208;
export const SIDEBAR_MAX_PX = 480;
const KEY_STEP_PX = 16;

const clamp = (px: number) => Math.round(Math.min(SIDEBAR_MAX_PX, Math.max(SIDEBAR_MIN_PX, px)));

/** The width remembered in this browser, within the limits. */
export function storedSidebarWidth(): number {
  return clamp(storage.getSidebarWidth() ?? SIDEBAR_DEFAULT_PX);
}

/**
 * The handle on the sidebar's right edge (wide screens only; the phone's drawer keeps its width): dragged with the
 * mouse or a pen, or moved with the arrow keys (Home and End for the limits) as a focusable separator. The width
 * is set on the column as a CSS variable while dragging (no re-render of the sidebar per move) and remembered when
 * the drag ends.
 */
export function SidebarResizer({ columnRef }: { columnRef: RefObject<HTMLElement | null> }) {
  const { t } = useTranslation();
  const width = useRef(storedSidebarWidth());
  const handleRef = useRef<HTMLDivElement>(null);

  const apply = (px: number) => {
    width.current = clamp(px);
    columnRef.current?.style.setProperty('--sidebar-w', `${width.current}px`);
    handleRef.current?.setAttribute('aria-valuenow', String(width.current));
  };
  useEffect(() => apply(width.current));

  const drag = useRef<{ startX: number; startWidth: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { startX: e.clientX, startWidth: width.current };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (drag.current) apply(drag.current.startWidth + e.clientX - drag.current.startX);
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    storage.setSidebarWidth(width.current);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next =
      e.key === 'ArrowLeft'
        ? width.current - KEY_STEP_PX
        : e.key === 'ArrowRight'
          ? width.current + KEY_STEP_PX
          : e.key === 'Home'
            ? SIDEBAR_MIN_PX
            : e.key === 'End'
              ? SIDEBAR_MAX_PX
              : null;
    if (next === null) return;
    e.preventDefault();
    apply(next);
    storage.setSidebarWidth(width.current);
  };
  const onDoubleClick = () => {
    apply(SIDEBAR_DEFAULT_PX);
    storage.setSidebarWidth(null);
  };

  return (
    <div
      ref={handleRef}
      role="separator"
      aria-orientation="vertical"
      aria-label={t('dashboard.sidebar.resize')}
      aria-description={t('dashboard.sidebar.resizeHint')}
      aria-valuemin={SIDEBAR_MIN_PX}
      aria-valuemax={SIDEBAR_MAX_PX}
      aria-valuenow={width.current}
      tabIndex={0}
      title={t('dashboard.sidebar.resizeHint')}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      onDoubleClick={onDoubleClick}
      data-testid="sidebar-resizer"
      className="group absolute inset-y-0 -right-1.5 z-10 hidden w-3 cursor-col-resize touch-none select-none outline-none lg:block"
    >
      <span
        aria-hidden
        className="absolute inset-y-0 left-1/2 w-0.5 -translate-x-1/2 bg-transparent transition-colors group-hover:bg-accent group-focus-visible:bg-accent"
      />
    </div>
  );
}
