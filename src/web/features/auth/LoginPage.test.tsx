import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../../common/api.js';
import { fakeServer, flush, renderPublic, usePublicTestEnv } from '../../test/publicHarness.js';
import LoginPage from './LoginPage.js';
import ResendVerificationPage from './ResendVerificationPage.js';

const user: User = {
  id: 1,
  name: 'Erika',
  email: 'erika@feeder.test',
  is_verified: true,
  language_preference: 'en',
  created_at: '2026-01-01T00:00:00Z',
  fever_api_enabled: false,
  mark_read_on: 'open',
};
const routes = { '/login': <LoginPage />, '/resend-verification': <ResendVerificationPage />, '/dashboard': <p>dashboard</p> };
const location = () => screen.getByTestId('location').textContent;

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
}
const submit = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  await flush();
};

describe('login screen (public-area-and-api.md §2, §4, §5, §8)', () => {
  usePublicTestEnv('en');

  it('requires both fields and sends nothing without them', async () => {
    const calls = fakeServer({});
    renderPublic('/login', routes);
    await submit();
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    expect(screen.getByLabelText('E-mail').getAttribute('type')).toBe('email');
    expect(calls).toHaveLength(0);
  });

  it('signs in: success message, then the dashboard after 1.5 s', async () => {
    const calls = fakeServer({ 'POST /auth/login': () => [200, { user, access_token: 'a', refresh_token: 'r' }] });
    renderPublic('/login', routes);
    fill('erika@feeder.test', 'secret-password');
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // While the request runs the button is disabled and shows an ellipsis.
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Signing in …' });
    expect(busy.disabled).toBe(true);
    expect(busy.textContent).toBe('…');
    await flush();
    expect(calls[0]).toEqual({ key: 'POST /auth/login', body: { email: 'erika@feeder.test', password: 'secret-password' } });
    expect(screen.getByText(/Signed in/)).toBeTruthy();
    expect(location()).toBe('/login');
    await act(() => vi.advanceTimersByTimeAsync(1499));
    expect(location()).toBe('/login');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(location()).toBe('/dashboard');
    expect(localStorage.getItem('token')).toBe('a');
    expect(localStorage.getItem('refresh_token')).toBe('r');
  });

  it('shows the wrong-credentials text, keeps it over a reload, and clears it on edit', async () => {
    fakeServer({ 'POST /auth/login': () => [401, { message: 'E-mail or password is wrong.', code: 'AUTH_401_1' }] });
    const first = renderPublic('/login', routes);
    fill('erika@feeder.test', 'wrong-password');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('E-mail or password is wrong.');
    expect(sessionStorage.getItem('loginError')).toBe('auth.errorCodes.AUTH_401_1');

    first.unmount(); // "reload"
    renderPublic('/login', routes);
    expect(screen.getByRole('alert').textContent).toBe('E-mail or password is wrong.');
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'x' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sessionStorage.getItem('loginError')).toBeNull();
  });

  it('falls back to AUTH_{status}_1 and shows the rate-limit text', async () => {
    let reply: [number, unknown] = [500, undefined];
    fakeServer({ 'POST /auth/login': () => reply });
    renderPublic('/login', routes);
    fill('erika@feeder.test', 'secret-password');
    await submit();
    expect(screen.getByRole('alert').textContent).toMatch(/temporarily unavailable/);
    reply = [429, { message: 'Too many attempts.', code: 'RATE_LIMITED' }];
    fill('erika@feeder.test', 'secret-password2');
    await submit();
    expect(screen.getByRole('alert').textContent).toMatch(/Too many attempts/);
  });

  it('refuses a response without tokens', async () => {
    fakeServer({ 'POST /auth/login': () => [200, { user }] });
    renderPublic('/login', routes);
    fill('erika@feeder.test', 'secret-password');
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('Sign-in failed. Please try again.');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('an unconfirmed address offers a new mail, with the address filled in', async () => {
    fakeServer({ 'POST /auth/login': () => [403, { message: 'Please confirm', code: 'AUTH_403_1' }] });
    renderPublic('/login', routes);
    fill('new@feeder.test', 'secret-password');
    await submit();
    const link = screen.getByRole('link', { name: 'Send the confirmation mail again' });
    fireEvent.click(link);
    await flush();
    expect(location()).toBe('/resend-verification');
    expect(sessionStorage.getItem('loginError')).toBeNull(); // following a link clears the error
    expect(screen.getByLabelText<HTMLInputElement>('E-mail').value).toBe('new@feeder.test');
  });

  it('treats an unverified user in a 200 answer like AUTH_403_1', async () => {
    fakeServer({ 'POST /auth/login': () => [200, { user: { ...user, is_verified: false }, access_token: 'a', refresh_token: 'r' }] });
    renderPublic('/login', routes);
    fill('erika@feeder.test', 'secret-password');
    await submit();
    expect(screen.getByRole('link', { name: 'Send the confirmation mail again' })).toBeTruthy();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
