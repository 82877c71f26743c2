import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '../../lib/storage.js';
import { fakeServer, renderAt, signedIn, testUser, setUpDashboardTestEnv, withBody } from '../../test/dashboardHarness.js';
import { DashboardRoutes } from '../dashboard/index.js';

function renderSettings() {
  return renderAt('/dashboard/settings', <DashboardRoutes />);
}

function passwordForm() {
  return screen.getByRole('region', { name: 'Change password' });
}

function fillPassword(current: string, next: string, confirm = next) {
  const form = within(passwordForm());
  fireEvent.change(form.getByLabelText('Current password'), { target: { value: current } });
  fireEvent.change(form.getByLabelText('New password'), { target: { value: next } });
  fireEvent.change(form.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.click(form.getByRole('button', { name: 'Change password' }));
}

setUpDashboardTestEnv();

describe('settings: account section', () => {
  it('shows the e-mail read-only and rejects a blank name without calling the server', async () => {
    const calls = fakeServer({});
    await renderSettings();
    const email = screen.getByLabelText<HTMLInputElement>('E-mail address');
    expect(email.value).toBe(testUser.email);
    expect(email.readOnly).toBe(true);

    const name = screen.getByLabelText('Name');
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Please enter a name.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(calls.filter((c) => c.key === 'PUT /auth/me')).toHaveLength(0);
  });

  it('saves the trimmed name and shows "name updated" for 3 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeServer({
      'PUT /auth/me': withBody<{ name: string }>((body) => [200, { user: { ...testUser, name: body.name }, message: 'Profile updated.', code: 'PROFILE_UPDATED' }]),
    });
    await renderSettings();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  Dana Neu  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));

    expect(await screen.findByText('Name updated.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /auth/me')?.body).toEqual({ name: 'Dana Neu' });
    expect(storage.getUser()?.name).toBe('Dana Neu');

    await act(() => vi.advanceTimersByTimeAsync(2900));
    expect(screen.queryByText('Name updated.')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByText('Name updated.')).toBeNull();
  });

  it('shows "error updating name" when the server fails', async () => {
    fakeServer({ 'PUT /auth/me': () => [500, { message: 'Internal server error.', code: 'INTERNAL_ERROR_X' }] });
    await renderSettings();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Dana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('The name could not be updated. Please try again.')).toBeTruthy();
  });

  it('asks to log in when there is no session token', async () => {
    const calls = fakeServer({});
    await renderSettings();
    storage.setTokens('', '');
    localStorage.removeItem('token');
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Dana' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('Please log in to change your profile.')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'PUT /auth/me')).toHaveLength(0);
  });
});

describe('settings: change password', () => {
  it('verifies the current password first, then changes it, stores the new tokens and clears the form', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = fakeServer({
      'POST /auth/verify-password': () => [200, { valid: true }],
      'PUT /auth/me': () => [200, { user: testUser, message: 'Password updated.', code: 'PASSWORD_UPDATED', access_token: 'access-2', refresh_token: 'refresh-2' }],
    });
    await renderSettings();
    fillPassword('secret123', 'new-secret-456');

    expect(await screen.findByText('Password updated.')).toBeTruthy();
    const keys = calls.map((c) => c.key).filter((k) => !k.startsWith('GET '));
    expect(keys).toEqual(['POST /auth/verify-password', 'PUT /auth/me']);
    expect(calls.find((c) => c.key === 'POST /auth/verify-password')?.body).toEqual({ password: 'secret123' });
    expect(calls.find((c) => c.key === 'PUT /auth/me')?.body).toEqual({ password: 'new-secret-456', old_password: 'secret123' });
    expect(storage.getToken()).toBe('access-2');
    expect(storage.getRefreshToken()).toBe('refresh-2');
    const form = within(passwordForm());
    expect(form.getByLabelText<HTMLInputElement>('Current password').value).toBe('');
    expect(form.getByLabelText<HTMLInputElement>('New password').value).toBe('');
    expect(form.getByLabelText<HTMLInputElement>('Confirm new password').value).toBe('');

    await act(() => vi.advanceTimersByTimeAsync(3100));
    expect(screen.queryByText('Password updated.')).toBeNull();
  });

  it('says "incorrect current password" and does not change anything when verification fails', async () => {
    const calls = fakeServer({ 'POST /auth/verify-password': () => [200, { valid: false }] });
    await renderSettings();
    fillPassword('wrong-one', 'new-secret-456');
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
    expect(calls.some((c) => c.key === 'PUT /auth/me')).toBe(false);
    expect(within(passwordForm()).getByLabelText('Current password')).toBe(document.activeElement);
  });

  it('checks length and confirmation before calling the server', async () => {
    const calls = fakeServer({});
    await renderSettings();
    fillPassword('secret123', 'short');
    expect(await screen.findByText('The new password must be at least 8 characters long.')).toBeTruthy();
    fillPassword('secret123', 'long-enough-1', 'long-enough-2');
    expect(await screen.findByText('The passwords do not match.')).toBeTruthy();
    expect(calls.filter((c) => !c.key.startsWith('GET '))).toHaveLength(0);
  });

  it('maps server errors: known codes translated, other client errors show the server message, the rest the generic text', async () => {
    let answer: [number, unknown] = [400, { message: 'The current password is incorrect.', code: 'INVALID_CURRENT_PASSWORD' }];
    fakeServer({ 'POST /auth/verify-password': () => [200, { valid: true }], 'PUT /auth/me': () => answer });
    await renderSettings();

    fillPassword('secret123', 'new-secret-456');
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();

    answer = [400, { message: 'Something specific went wrong.', code: 'SOMETHING_NEW' }];
    fillPassword('secret123', 'new-secret-456');
    expect(await screen.findByText('Something specific went wrong.')).toBeTruthy();

    answer = [500, { message: 'Internal server error.', code: 'INTERNAL_ERROR_X' }];
    fillPassword('secret123', 'new-secret-456');
    expect(await screen.findByText('The password could not be changed. Please try again.')).toBeTruthy();
  });

  it('says "Nicht authentifiziert" without a token (German interface)', async () => {
    await signedIn(testUser, 'de');
    const calls = fakeServer({});
    await renderSettings();
    localStorage.removeItem('token');
    const form = within(screen.getByRole('region', { name: 'Passwort ändern' }));
    fireEvent.change(form.getByLabelText('Aktuelles Passwort'), { target: { value: 'secret123' } });
    fireEvent.change(form.getByLabelText('Neues Passwort'), { target: { value: 'new-secret-456' } });
    fireEvent.change(form.getByLabelText('Neues Passwort bestätigen'), { target: { value: 'new-secret-456' } });
    fireEvent.click(form.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Nicht authentifiziert')).toBeTruthy();
    expect(calls.filter((c) => !c.key.startsWith('GET '))).toHaveLength(0);
  });
});

describe('settings: appearance', () => {
  it('has an accessible dark-mode switch and a language choice', async () => {
    const calls = fakeServer({
      'POST /api/users/update-language': withBody<{ language: 'de' | 'en' }>((body) => [200, { user: { ...testUser, language_preference: body.language } }]),
    });
    await renderSettings();
    const toggle = screen.getByRole('switch', { name: 'Dark mode' });
    const before = toggle.getAttribute('aria-checked');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe(before === 'true' ? 'false' : 'true');
    expect(document.documentElement.classList.contains('dark')).toBe(before !== 'true');

    fireEvent.click(screen.getByRole('radio', { name: 'Deutsch' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Dunkles Design' })).toBeTruthy());
    await waitFor(() => expect(calls.find((c) => c.key === 'POST /api/users/update-language')?.body).toEqual({ language: 'de' }));
  });

  it('offers when articles are marked read, on open by default, and saves the choice to the account', async () => {
    const calls = fakeServer({
      'PUT /auth/me': withBody<{ mark_read_on: string }>((body) => [
        200,
        { user: { ...testUser, mark_read_on: body.mark_read_on }, message: 'ok', code: 'PROFILE_UPDATED' },
      ]),
    });
    await renderSettings();
    const group = screen.getByRole('radiogroup', { name: 'Reading: mark articles as read' });
    const radios = within(group).getAllByRole<HTMLInputElement>('radio');
    expect(radios.map((r) => r.value)).toEqual(['open', 'scroll', 'manual']);
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'When opened' }).checked).toBe(true);

    fireEvent.click(within(group).getByRole('radio', { name: 'When scrolled past' }));
    await waitFor(() => expect(calls.find((c) => c.key === 'PUT /auth/me')?.body).toEqual({ mark_read_on: 'scroll' }));
    await waitFor(() => expect((storage.getUser() as { mark_read_on?: string } | null)?.mark_read_on).toBe('scroll'));
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'When scrolled past' }).checked).toBe(true);
  });

  it('shows the stored choice, and goes back with a message when the server refuses a new one', async () => {
    await signedIn({ ...testUser, mark_read_on: 'manual' }, 'de');
    fakeServer({ 'PUT /auth/me': () => [500, { message: 'boom', code: 'INTERNAL' }] });
    await renderSettings();
    const group = screen.getByRole('radiogroup', { name: 'Lesen: Artikel als gelesen markieren' });
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'Nur von Hand' }).checked).toBe(true);
    fireEvent.click(within(group).getByRole('radio', { name: 'Beim Öffnen' }));
    expect(await screen.findByText('Die Lese-Einstellung konnte nicht gespeichert werden. Bitte versuche es erneut.')).toBeTruthy();
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'Nur von Hand' }).checked).toBe(true);
  });
});
