import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPublic, resetBrowser } from '../test/publicHarness.js';
import { CookieBanner } from './CookieBanner.js';

describe('cookie banner (public-area-and-api.md §2)', () => {
  beforeEach(() => resetBrowser('en'));
  afterEach(cleanup);

  it('lists the stored keys in its details', () => {
    renderPublic('/', { '/': <CookieBanner /> });
    const toggle = screen.getByRole('button', { name: 'Details' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => toggle.click());
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    for (const key of ['cookiesAccepted', 'token, refresh_token', 'user', 'theme', 'language']) expect(screen.getByText(key)).toBeTruthy();
  });

  it('stays away once accepted, also after a reload', () => {
    const first = renderPublic('/', { '/': <CookieBanner /> });
    act(() => screen.getByRole('button', { name: 'Got it' }).click());
    expect(localStorage.getItem('cookiesAccepted')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Got it' })).toBeNull();
    first.unmount();
    renderPublic('/', { '/': <CookieBanner /> });
    expect(screen.queryByRole('region')).toBeNull();
  });
});
