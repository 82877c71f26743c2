import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderPublic, resetBrowser } from '../../test/publicHarness.js';
import { PublicLayout } from './PublicLayout.js';

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
}

const header = () => screen.getByRole('banner');

describe('public header', () => {
  beforeEach(() => resetBrowser('en'));
  afterEach(cleanup);
  afterEach(() => scrollTo(0));

  it('on the landing page turns solid only after scrolling more than 10 px (§2, §9)', () => {
    renderPublic('/', { '/': <PublicLayout transparentHeader>content</PublicLayout> });
    expect(header().dataset.solid).toBe('false');
    scrollTo(10);
    expect(header().dataset.solid).toBe('false');
    scrollTo(11);
    expect(header().dataset.solid).toBe('true');
    expect(header().className).toMatch(/bg-bg/);
    scrollTo(0);
    expect(header().dataset.solid).toBe('false');
  });

  it('is always solid elsewhere', () => {
    renderPublic('/login', { '/login': <PublicLayout>content</PublicLayout> });
    expect(header().dataset.solid).toBe('true');
  });

  it('offers language, theme, sign-in and registration, and the legal links', async () => {
    renderPublic('/', { '/': <PublicLayout>content</PublicLayout> });
    expect(screen.getByRole('button', { name: /^EN – switch language to Deutsch/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Switch to (dark|light) theme/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/register');
    // public-area-and-api.md §2: the footer links privacy, imprint, terms and api-docs
    for (const [name, href] of [
      ['Privacy', '/privacy'],
      ['Imprint', '/imprint'],
      ['Terms', '/terms'],
      ['API', '/api-docs'],
    ]) {
      expect(screen.getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    expect(screen.getByText('© 2026 Feeder')).toBeTruthy();
  });

  it('switches the language and the theme, and remembers both', async () => {
    renderPublic('/', { '/': <PublicLayout>content</PublicLayout> });
    await act(async () => screen.getByRole('button', { name: /switch language/ }).click());
    expect(localStorage.getItem('language')).toBe('de');
    expect(screen.getByRole('link', { name: 'Anmelden' })).toBeTruthy();
    const before = document.documentElement.classList.contains('dark');
    act(() => screen.getByRole('button', { name: /Design wechseln/ }).click());
    expect(document.documentElement.classList.contains('dark')).toBe(!before);
    expect(localStorage.getItem('theme')).toBe(before ? 'light' : 'dark');
  });
});
