import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, launchBrowser, linkFromMail, newPage, signIn, t, uniqueEmail } from './helpers.js';

/**
 * A new user's whole way through the account screens, in a real browser against `feeder all` (issue: foundation):
 * register → the unverified login shows the resend link → confirm from the mail → sign in → change name and
 * password → dark mode survives a reload → language switch → sign out → sign in with the new password.
 */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('account lifecycle', () => {
  it('registers, confirms, signs in, edits the profile and theme and language, and signs out', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('life');
    const password = 'first-password-1';

    // Register: success message, the form disappears, then /login after 5 s.
    await page.goto('/register');
    await page.getByLabel(t('auth.name'), { exact: true }).fill('Erika Muster');
    await page.getByLabel(t('auth.email'), { exact: true }).fill(email);
    await page.getByLabel(t('auth.password'), { exact: true }).fill(password);
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('auth.register.submit'), exact: true }).click();
    await page.getByText(t('auth.register.successTitle')).waitFor();
    expect(await page.getByRole('button', { name: t('auth.register.submit'), exact: true }).count()).toBe(0);
    await page.waitForURL('**/login', { timeout: 8_000 });
    await page.getByRole('heading', { name: t('auth.login.title') }).waitFor();

    // Not yet confirmed: the login error says so and offers the resend link, with the address remembered.
    await page.getByLabel(t('auth.email'), { exact: true }).fill(email);
    await page.getByLabel(t('auth.password'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click();
    await page.getByText(t('auth.errorCodes.AUTH_403_1')).waitFor();
    await page.getByRole('link', { name: t('auth.login.resendLink') }).click();
    await page.waitForURL('**/resend-verification');
    await page.getByRole('heading', { name: t('auth.resend.title') }).waitFor();
    expect(await page.getByLabel(t('auth.email'), { exact: true }).inputValue()).toBe(email);

    // Confirm from the mail: confirmation, then /login after 5 s.
    const verifyLink = await linkFromMail(email, '/verify-email?token=');
    await page.goto(verifyLink);
    await page.getByText(t('auth.verify.successTitle')).waitFor();
    await page.waitForURL('**/login', { timeout: 8_000 });

    // Sign in: success message, dashboard after 1.5 s, greeted by name.
    await signIn(page, email, password);
    await page.getByRole('heading', { name: t('dashboard.welcome.title', { name: 'Erika Muster' }) }).waitFor();

    // Account settings through the user menu.
    await page.getByRole('button', { name: t('userMenu.button') }).click();
    await page.getByRole('menuitem', { name: t('userMenu.settings') }).click();
    await page.waitForURL('**/dashboard/settings');
    await page.getByRole('heading', { name: t('settings.account.title') }).waitFor();
    expect(await page.getByLabel(t('settings.account.email'), { exact: true }).inputValue()).toBe(email);

    // Name: blank is refused, a new name is saved and shown in the user menu.
    const name = page.getByLabel(t('settings.account.name'), { exact: true });
    await name.fill('   ');
    await page.getByRole('button', { name: t('settings.account.save') }).click();
    await page.getByText(t('settings.account.enterName')).waitFor();
    await name.fill('Erika Beispiel');
    await page.getByRole('button', { name: t('settings.account.save') }).click();
    await page.getByText(t('settings.account.nameUpdated')).waitFor();
    await page.getByRole('button', { name: t('userMenu.button') }).click();
    await page.getByRole('menu').getByText('Erika Beispiel').waitFor();
    await page.keyboard.press('Escape');

    // Password: a wrong current password is refused; the right one changes it.
    const newPassword = 'second-password-2';
    await page.getByLabel(t('settings.password.current'), { exact: true }).fill('not-my-password');
    await page.getByLabel(t('settings.password.new'), { exact: true }).fill(newPassword);
    await page.getByLabel(t('settings.password.confirm'), { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: t('settings.password.submit'), exact: true }).click();
    await page.getByText(t('settings.password.incorrectCurrent')).waitFor();
    await page.getByLabel(t('settings.password.current'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('settings.password.submit'), exact: true }).click();
    await page.getByText(t('settings.password.updated')).waitFor();

    // Dark mode survives a reload.
    const darkSwitch = page.getByRole('switch', { name: t('settings.appearance.darkMode') });
    expect(await darkSwitch.getAttribute('aria-checked')).toBe('false');
    await darkSwitch.click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.reload();
    await page.getByRole('switch', { name: t('settings.appearance.darkMode') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    expect(await page.getByRole('switch', { name: t('settings.appearance.darkMode') }).getAttribute('aria-checked')).toBe('true');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    // Language: switch to German; it is stored for the account and wins after a reload.
    await page.getByRole('radiogroup').getByText('Deutsch', { exact: true }).click();
    await page.getByRole('heading', { name: t('settings.password.title', {}, 'de') }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: t('settings.password.title', {}, 'de') }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

    // The session survived the password change (this session got a fresh token pair).
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: t('dashboard.welcome.title', { name: 'Erika Beispiel' }, 'de') }).waitFor();

    // Sign out through the user menu: back to /, nothing of the session left.
    await page.getByRole('button', { name: t('userMenu.button', {}, 'de') }).click();
    await page.getByRole('menuitem', { name: t('userMenu.logout', {}, 'de') }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('refresh_token'), localStorage.getItem('user')])).toEqual([null, null, null]);
    await page.goto('/dashboard');
    await page.waitForURL((url) => url.pathname === '/');

    // The old password no longer works; the new one does.
    await page.goto('/login');
    await page.getByLabel(t('auth.email', {}, 'de'), { exact: true }).fill(email);
    await page.getByLabel(t('auth.password', {}, 'de'), { exact: true }).fill(password);
    await page.getByRole('button', { name: t('auth.login.submit', {}, 'de'), exact: true }).click();
    await page.getByText(t('auth.errorCodes.AUTH_401_1', {}, 'de')).waitFor();
    await page.getByLabel(t('auth.password', {}, 'de'), { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: t('auth.login.submit', {}, 'de'), exact: true }).click();
    await page.waitForURL('**/dashboard');
    await context.close();
  });
});

describe('forgotten password', () => {
  it('sends a reset link that sets a new password once, with a countdown to the login', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('reset');
    createUser(email, 'forgotten-pass-1', 'Rita Reset');

    await page.goto('/login');
    await page.getByRole('link', { name: t('auth.login.forgotPassword') }).click();
    await page.waitForURL('**/forgot-password');
    // The router keeps the old page on screen while the new page's code loads: wait for the new page.
    await page.getByRole('heading', { name: t('auth.forgot.title') }).waitFor();
    await page.getByLabel(t('auth.email'), { exact: true }).fill(email);
    await page.getByRole('button', { name: t('auth.forgot.submit') }).click();
    await page.getByText(t('auth.errorCodes.PASSWORD_RESET_MAIL_SENT')).waitFor();

    const resetLink = await linkFromMail(email, '/reset-password?token=');
    await page.goto(resetLink);
    await page.getByLabel(t('auth.reset.newPassword'), { exact: true }).fill('short');
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill('short');
    await page.getByRole('button', { name: t('auth.reset.submit') }).click();
    await page.getByText(t('auth.passwordTooShort')).waitFor();
    await page.getByLabel(t('auth.reset.newPassword'), { exact: true }).fill('brand-new-pass-2');
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill('brand-new-pass-2x');
    await page.getByRole('button', { name: t('auth.reset.submit') }).click();
    await page.getByText(t('auth.passwordsDontMatch')).waitFor();
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill('brand-new-pass-2');
    await page.getByRole('button', { name: t('auth.reset.submit') }).click();
    await page.getByText(t('auth.reset.successTitle')).waitFor();
    await page.getByText(t('auth.redirectingToLogin_other', { count: 5 })).waitFor();
    await page.waitForURL('**/login', { timeout: 8_000 });

    // The link works once.
    await page.goto(resetLink);
    await page.getByLabel(t('auth.reset.newPassword'), { exact: true }).fill('another-pass-3');
    await page.getByLabel(t('auth.confirmPassword'), { exact: true }).fill('another-pass-3');
    await page.getByRole('button', { name: t('auth.reset.submit') }).click();
    await page.getByText(t('auth.errorCodes.INVALID_TOKEN')).waitFor();

    await signIn(page, email, 'brand-new-pass-2');
    await context.close();
  });

  it('without a token the reset page says so, hides the form and links to a new request', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/reset-password');
    await page.getByText(t('auth.invalidToken')).waitFor();
    expect(await page.getByRole('button', { name: t('auth.reset.submit') }).count()).toBe(0);
    await page.getByRole('link', { name: t('auth.reset.requestNew') }).click();
    await page.waitForURL('**/forgot-password');
    await context.close();
  });
});

describe('login errors', () => {
  it('survive a reload, bring the user back to /login from elsewhere, and clear when a field is edited', async () => {
    const { context, page } = await newPage(browser);
    const email = uniqueEmail('err');
    createUser(email, 'right-password-1', 'Erik Error');

    await page.goto('/login');
    await page.getByLabel(t('auth.email'), { exact: true }).fill(email);
    await page.getByLabel(t('auth.password'), { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: t('auth.login.submit'), exact: true }).click();
    const error = page.getByText(t('auth.errorCodes.AUTH_401_1'));
    await error.waitFor();

    await page.reload();
    await error.waitFor();

    // A stored login error sends the user back to /login from other public routes (spec §2).
    await page.goto('/privacy');
    await page.waitForURL('**/login');
    await error.waitFor();

    await page.getByLabel(t('auth.password'), { exact: true }).fill('x');
    await error.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => sessionStorage.getItem('loginError'))).toBeNull();
    await context.close();
  });
});
