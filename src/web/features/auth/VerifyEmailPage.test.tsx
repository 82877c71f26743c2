import { act, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, flush, renderPublic, usePublicTestEnv } from '../../test/publicHarness.js';
import VerifyEmailPage from './VerifyEmailPage.js';

const routes = { '/verify-email': <VerifyEmailPage />, '/login': <p>login</p> };

describe('verify-email screen (public-area-and-api.md §2, §8)', () => {
  usePublicTestEnv('en');

  it('without a token says a mail was sent and offers another', () => {
    renderPublic('/verify-email', routes);
    expect(screen.getByRole('heading', { name: 'Confirm your e-mail address' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send a new confirmation mail' }).getAttribute('href')).toBe('/resend-verification');
  });

  it('confirms once, then goes to /login after 5 s', async () => {
    const calls = fakeServer({ 'GET /auth/verify-email?token=good': () => [200, { status: 'success', code: 'EMAIL_VERIFIED', message: 'ok' }] });
    renderPublic('/verify-email?token=good', routes);
    await flush();
    expect(screen.getByText('Your e-mail address is confirmed. Welcome to Feeder!')).toBeTruthy();
    expect(calls).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('a bad link explains and offers a new mail', async () => {
    fakeServer({ 'GET /auth/verify-email?token=old': () => [400, { status: 'error', code: 'TOKEN_EXPIRED', message: 'expired' }] });
    renderPublic('/verify-email?token=old', routes);
    await flush();
    expect(screen.getByRole('alert').textContent).toBe('This link has expired.');
    expect(screen.getByRole('link', { name: 'Send a new confirmation mail' })).toBeTruthy();
  });
});
