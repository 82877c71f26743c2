import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { ERROR_TOAST_MS, toast, Toaster, TOAST_MS } from './Toast.js';

beforeEach(async () => {
  await i18n.changeLanguage('en');
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('toasts (dashboard.md §7 "toast" event)', () => {
  it('shows a message in a polite live region and lets it go after 4 s (an error after 6 s)', () => {
    render(<Toaster />);
    const region = screen.getByTestId('toasts');
    expect(region.getAttribute('aria-live')).toBe('polite');
    act(() => toast('Feed order updated'));
    act(() => toast('The feed order could not be saved.', 'error'));
    expect(within(region).getByText('Feed order updated')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(TOAST_MS));
    expect(within(region).queryByText('Feed order updated')).toBeNull();
    expect(within(region).getByText('The feed order could not be saved.')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(ERROR_TOAST_MS - TOAST_MS));
    expect(region.textContent).toBe('');
  });

  it('stays while hovered, closes from its button, and keeps at most three', () => {
    render(<Toaster />);
    act(() => toast('One', 'info'));
    const one = screen.getByText('One').closest('[data-tone]')!;
    fireEvent.mouseEnter(one);
    act(() => void vi.advanceTimersByTime(TOAST_MS * 2));
    expect(screen.getByText('One')).toBeTruthy();
    fireEvent.click(within(one as HTMLElement).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('One')).toBeNull();
    for (const m of ['a', 'b', 'c', 'd']) act(() => toast(m));
    expect(screen.getAllByRole('button', { name: 'Close' }).length).toBe(3);
    expect(screen.queryByText('a')).toBeNull();
  });
});
