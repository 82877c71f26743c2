import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '../../../lib/storage.js';
import { fakeServer, renderAt, signedIn, testUser, setUpDashboardTestEnv, withBody } from '../../../test/dashboardHarness.js';
import SettingsPage from '../SettingsPage.js';
import { FeverSection } from './FeverSection.js';

/**
 * Settings section 4, Fever API (dashboard.md §2, §4 "Fever API", §7, §8 "Fever", §9): the toggle, the
 * connection box, reveal and copy with the password fetched once when not held, the 2 s copy messages,
 * regenerate and the error texts.
 */
const PASSWORD = 'abcde-fghjk-mnpqr-stuvw';
const origin = window.location.origin;

async function render(enabled: boolean, language: 'de' | 'en' = 'en') {
  await signedIn({ ...testUser, fever_api_enabled: enabled }, language);
  return renderAt('/dashboard/settings', <FeverSection />);
}
const section = () => screen.getByRole('region', { name: 'Fever API' });
const passwordInput = () => screen.getByLabelText<HTMLInputElement>('API password');
const clipboard = () => {
  const writeText = vi.fn(async () => {});
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  return writeText;
};

// Each test signs in itself (with or without the Fever API on).
setUpDashboardTestEnv({ signIn: false });

describe('settings: Fever API section', () => {
  it('is section 4, between the password and appearance sections', async () => {
    fakeServer({});
    await signedIn();
    await renderAt('/dashboard/settings', <SettingsPage />);
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    // Section 3 (feed management) sits between the password and the Fever API (dashboard.md §2 "Account settings").
    expect(headings.indexOf('Fever API')).toBe(headings.indexOf('Feed management') + 1);
    expect(headings.indexOf('Feed management')).toBe(headings.indexOf('Change password') + 1);
    expect(headings.indexOf('Appearance')).toBe(headings.indexOf('Fever API') + 1);
  });

  it('enabling shows the connection box with the password the server returned, without fetching it again', async () => {
    const calls = fakeServer({ 'PUT /api/user/fever-api': withBody<{ enabled: boolean }>((body) => [200, { enabled: body.enabled, password: PASSWORD }]) });
    await render(false);
    const toggle = within(section()).getByRole('switch', { name: 'Enable the Fever API' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByLabelText('API URL (Fever)')).toBeNull();

    fireEvent.click(toggle);
    expect(await screen.findByLabelText('API URL (Fever)')).toBeTruthy();
    expect(calls.find((c) => c.key === 'PUT /api/user/fever-api')?.body).toEqual({ enabled: true });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(storage.getUser()?.fever_api_enabled).toBe(true);

    expect(screen.getByLabelText<HTMLInputElement>('API URL (Fever)').value).toBe(`${origin}/api/fever.php`);
    expect(screen.getByLabelText<HTMLInputElement>('API URL (Google Reader)').value).toBe(`${origin}/api/greader.php`);
    const username = screen.getByLabelText<HTMLInputElement>('Username');
    expect(username.value).toBe(testUser.email);
    expect(username.readOnly).toBe(true);
    expect(screen.getByText(/connect through the Fever API/)).toBeTruthy();

    // Masked by default; the eye shows it.
    expect(passwordInput().type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    await waitFor(() => expect(passwordInput().type).toBe('text'));
    expect(passwordInput().value).toBe(PASSWORD);
    expect(calls.some((c) => c.key === 'GET /api/user/fever-api/password')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(passwordInput().type).toBe('password');
  });

  it('fetches the password on first reveal when it is not held, once', async () => {
    const calls = fakeServer({ 'GET /api/user/fever-api/password': () => [200, { success: true, password: PASSWORD }] });
    await render(true);
    expect(passwordInput().value).not.toBe(PASSWORD);
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    await waitFor(() => expect(passwordInput().value).toBe(PASSWORD));
    expect(passwordInput().type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    await waitFor(() => expect(passwordInput().type).toBe('text'));
    expect(calls.filter((c) => c.key === 'GET /api/user/fever-api/password')).toHaveLength(1);
  });

  it('copies the password (fetched first when not held) and says so for 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const writeText = clipboard();
    const calls = fakeServer({ 'GET /api/user/fever-api/password': () => [200, { success: true, password: PASSWORD }] });
    await render(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    expect(await screen.findByText('API password copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(PASSWORD);
    expect(calls.filter((c) => c.key === 'GET /api/user/fever-api/password')).toHaveLength(1);
    expect(passwordInput().type).toBe('password'); // copying does not reveal

    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(screen.queryByText('API password copied to the clipboard.')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByText('API password copied to the clipboard.')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Copy Fever API URL' }));
    expect(await screen.findByText('Fever API URL copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenLastCalledWith(`${origin}/api/fever.php`);
    fireEvent.click(screen.getByRole('button', { name: 'Copy Google Reader API URL' }));
    expect(await screen.findByText('Google Reader API URL copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenLastCalledWith(`${origin}/api/greader.php`);
    fireEvent.click(screen.getByRole('button', { name: 'Copy username' }));
    expect(await screen.findByText('Username copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenLastCalledWith(testUser.email);
    await act(() => vi.advanceTimersByTimeAsync(2100));
    expect(screen.queryByText('Username copied to the clipboard.')).toBeNull();
  });

  it('falls back to select-and-copy without the Clipboard API, and says when copying is impossible', async () => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
    const exec = vi.fn(() => true);
    document.execCommand = exec;
    fakeServer({});
    await render(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy username' }));
    expect(await screen.findByText('Username copied to the clipboard.')).toBeTruthy();
    expect(exec).toHaveBeenCalledWith('copy');

    exec.mockReturnValue(false);
    fireEvent.click(screen.getByRole('button', { name: 'Copy Fever API URL' }));
    expect(await screen.findByText('Copying is not possible here. Please select the text and copy it yourself.')).toBeTruthy();
  });

  it('shows apiPasswordGenerateError when the password cannot be fetched for copy or reveal', async () => {
    const writeText = clipboard();
    fakeServer({ 'GET /api/user/fever-api/password': () => [500, { message: 'Internal server error.', code: 'INTERNAL_ERROR' }] });
    await render(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy password' }));
    expect(await screen.findByText('The API password could not be loaded or generated. Please try again.')).toBeTruthy();
    expect(writeText).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    await waitFor(() => expect(screen.getAllByText('The API password could not be loaded or generated. Please try again.')).toHaveLength(1));
    expect(passwordInput().type).toBe('password');
  });

  /** The section's button opens the confirmation; the dialog's button of the same name generates. */
  const confirmRegenerate = async () => {
    fireEvent.click(within(section()).getByRole('button', { name: 'Generate new password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a new password?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Generate new password' }));
    return dialog;
  };

  it('asks before generating a new password, saying it signs out every connected app; cancel changes nothing', async () => {
    const calls = fakeServer({ 'POST /api/user/fever-api/password': () => [200, { success: true, password: 'new' }] });
    await render(true);
    fireEvent.click(within(section()).getByRole('button', { name: 'Generate new password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a new password?' });
    expect(within(dialog).getByText(/Every connected app is signed out at once/)).toBeTruthy();
    // Cancel has the focus: Enter right away does not lock the apps out.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Generate a new password?' })).toBeNull());
    expect(calls.some((c) => c.key === 'POST /api/user/fever-api/password')).toBe(false);
  });

  it('regenerates: the new password is held and shown on reveal, with the success text', async () => {
    let n = 0;
    const calls = fakeServer({
      'GET /api/user/fever-api/password': () => [200, { success: true, password: PASSWORD }],
      'POST /api/user/fever-api/password': () => [200, { success: true, password: `new-password-${++n}` }],
    });
    await render(true);
    await confirmRegenerate();
    expect(await screen.findByText('A new Fever API password was generated. Enter it in your apps.')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/user/fever-api/password')?.body).toEqual({ regenerate: true });
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    await waitFor(() => expect(passwordInput().value).toBe('new-password-1'));
    expect(calls.some((c) => c.key === 'GET /api/user/fever-api/password')).toBe(false);
  });

  it("shows the server's error text on a failed toggle or regenerate, else the default text with the error appended", async () => {
    let reply: [number, unknown?] = [400, { error: 'Das geht gerade nicht.' }];
    fakeServer({ 'PUT /api/user/fever-api': () => reply, 'POST /api/user/fever-api/password': () => reply });
    await render(false);
    const toggle = screen.getByRole('switch', { name: 'Enable the Fever API' });
    fireEvent.click(toggle);
    expect(await screen.findByText('Das geht gerade nicht.')).toBeTruthy();
    expect(toggle.getAttribute('aria-checked')).toBe('false');

    reply = [403, { message: 'Not allowed here.', code: 'FORBIDDEN' }];
    fireEvent.click(toggle);
    expect(await screen.findByText('Not allowed here.')).toBeTruthy();

    reply = [502];
    fireEvent.click(toggle);
    expect(await screen.findByText('The Fever API could not be switched: HTTP 502')).toBeTruthy();

    cleanup();
    reply = [503];
    await render(true);
    const dialog = await confirmRegenerate();
    // The failure shows inside the dialog, which stays open.
    expect(await within(dialog).findByText('A new Fever API password could not be generated: HTTP 503')).toBeTruthy();
  });

  it('in German, the default error text comes first and a network failure is named', async () => {
    fakeServer({
      'PUT /api/user/fever-api': () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await render(false, 'de');
    fireEvent.click(screen.getByRole('switch', { name: 'Fever API aktivieren' }));
    expect(await screen.findByText('Die Fever API konnte nicht umgeschaltet werden: Keine Antwort vom Server. Bitte prüfe deine Verbindung.')).toBeTruthy();
  });

  it('disabling hides the connection box and keeps the user flag in step', async () => {
    const calls = fakeServer({ 'PUT /api/user/fever-api': withBody<{ enabled: boolean }>((body) => [200, { enabled: body.enabled }]) });
    await render(true);
    expect(screen.getByLabelText('API URL (Fever)')).toBeTruthy();
    fireEvent.click(screen.getByRole('switch', { name: 'Enable the Fever API' }));
    await waitFor(() => expect(screen.queryByLabelText('API URL (Fever)')).toBeNull());
    expect(calls.find((c) => c.key === 'PUT /api/user/fever-api')?.body).toEqual({ enabled: false });
    expect(storage.getUser()?.fever_api_enabled).toBe(false);
  });
});
