import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '../lib/storage.js';
import { fakeServer, renderAt, signedIn, testUser, setUpDashboardTestEnv, withBody } from '../test/dashboardHarness.js';
import { UserMenu } from './UserMenu.js';

setUpDashboardTestEnv();

async function renderMenu() {
  await renderAt(
    '/dashboard',
    <div>
      <p>Outside</p>
      <UserMenu />
    </div>,
  );
  return screen.getByRole('button', { name: 'User menu' });
}

describe('user menu (public-area-and-api.md §2)', () => {
  it('opens with name and e-mail, focuses the first item and closes on an outside click', async () => {
    fakeServer({});
    const button = await renderMenu();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    const menu = screen.getByRole('menu');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(menu).getByText(testUser.name)).toBeTruthy();
    expect(within(menu).getByText(testUser.email)).toBeTruthy();
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Account settings', 'LanguageEN', 'Log out']);
    expect(document.activeElement).toBe(items[0]);

    fireEvent.pointerDown(screen.getByText('Outside'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('stays open on a click inside, moves with arrow keys and closes on Escape with focus back on the button', async () => {
    fakeServer({});
    const button = await renderMenu();
    fireEvent.click(button);
    const menu = screen.getByRole('menu');
    fireEvent.pointerDown(within(menu).getByText(testUser.email));
    expect(screen.queryByRole('menu')).not.toBeNull();

    const items = within(menu).getAllByRole('menuitem');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);

    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('falls back to the e-mail when the user has no name', async () => {
    await signedIn({ ...testUser, name: '' });
    fakeServer({});
    fireEvent.click(await renderMenu());
    expect(within(screen.getByRole('menu')).getAllByText(testUser.email)).toHaveLength(2);
  });

  it('goes to the settings page and closes', async () => {
    fakeServer({});
    fireEvent.click(await renderMenu());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Account settings' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/dashboard/settings');
  });

  it('switches the language through the server and shows the new code', async () => {
    const calls = fakeServer({
      'POST /api/users/update-language': withBody<{ language: 'de' | 'en' }>((body) => [200, { user: { ...testUser, language_preference: body.language } }]),
    });
    const button = await renderMenu();
    fireEvent.click(button);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Language: EN – switch to DE' }));
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Benutzermenü' })).toBeTruthy());
    expect(calls.find((c) => c.key === 'POST /api/users/update-language')?.body).toEqual({ language: 'de' });
    fireEvent.click(screen.getByRole('button', { name: 'Benutzermenü' }));
    expect(screen.getByRole('menuitem', { name: 'Sprache: DE – zu EN wechseln' })).toBeTruthy();
  });

  it('logs out: revokes the refresh token, clears the session and goes to /', async () => {
    const calls = fakeServer({ 'POST /auth/logout': () => [204, undefined] });
    fireEvent.click(await renderMenu());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    const logout = calls.find((c) => c.key === 'POST /auth/logout');
    expect(logout?.auth).toBe('Bearer refresh-1');
    expect(storage.getToken()).toBeNull();
    expect(storage.getUser()).toBeNull();
  });
});
