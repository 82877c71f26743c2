import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDragEndClickGuard } from './sidebarDrag.js';

/** A click as the browser dispatches it; true when nothing cancelled it (the link would be followed). */
function click(): boolean {
  return window.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
}

function press(): void {
  window.dispatchEvent(new Event('pointerdown', { bubbles: true }));
}

describe('useDragEndClickGuard', () => {
  afterEach(() => vi.useRealTimers());

  it('cancels the click that ends a drag, and no click after it', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDragEndClickGuard());
    expect(click()).toBe(true);
    result.current.started();
    expect(click()).toBe(false);
    result.current.finished();
    // The release's own click comes in the same task as the drop.
    expect(click()).toBe(false);
    vi.runAllTimers();
    expect(click()).toBe(true);
    unmount();
  });

  it('lets the next press through even when it comes before the guard’s timer (a busy browser)', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDragEndClickGuard());
    result.current.started();
    result.current.finished();
    press();
    expect(click()).toBe(true);
    expect(result.current.dragging.current).toBe(false);
    unmount();
  });

  it('a press during the drag does not end the guard, and a new drag is not ended by the old one’s timer', () => {
    vi.useFakeTimers();
    const { result, unmount } = renderHook(() => useDragEndClickGuard());
    result.current.started();
    press();
    expect(click()).toBe(false);
    result.current.finished();
    result.current.started();
    vi.runAllTimers();
    expect(click()).toBe(false);
    unmount();
  });
});
