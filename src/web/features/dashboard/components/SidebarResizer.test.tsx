import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import '../../../i18n/index.js';
import { SIDEBAR_WIDTH_KEY } from '../../../lib/storage.js';
import { SIDEBAR_DEFAULT_PX, SIDEBAR_MAX_PX, SIDEBAR_MIN_PX, SidebarResizer } from './SidebarResizer.js';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function setup() {
  const column = createRef<HTMLElement>();
  render(
    <aside ref={column}>
      <SidebarResizer columnRef={column} />
    </aside>,
  );
  const handle = screen.getByRole('separator', { name: 'Sidebar width' });
  const width = () => column.current!.style.getPropertyValue('--sidebar-w');
  return { handle, width };
}

describe('the sidebar can be widened (docs/decisions.md "Sidebar at scale")', () => {
  it('moves with the arrow keys within its limits and remembers the width', () => {
    const { handle, width } = setup();
    expect(width()).toBe(`${SIDEBAR_DEFAULT_PX}px`);
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(width()).toBe(`${SIDEBAR_DEFAULT_PX + 16}px`);
    expect(handle.getAttribute('aria-valuenow')).toBe(String(SIDEBAR_DEFAULT_PX + 16));
    expect(localStorage.getItem(SIDEBAR_WIDTH_KEY)).toBe(String(SIDEBAR_DEFAULT_PX + 16));
    fireEvent.keyDown(handle, { key: 'End' });
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(width()).toBe(`${SIDEBAR_MAX_PX}px`);
    fireEvent.keyDown(handle, { key: 'Home' });
    expect(width()).toBe(`${SIDEBAR_MIN_PX}px`);
  });

  it('starts from the remembered width, kept within the limits', () => {
    localStorage.setItem(SIDEBAR_WIDTH_KEY, '9999');
    expect(setup().width()).toBe(`${SIDEBAR_MAX_PX}px`);
  });
});
