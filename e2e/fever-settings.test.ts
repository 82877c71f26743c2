import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, signedInPage, t } from './helpers.js';

/**
 * Settings section 4, Fever API, in a real browser against `feeder all` (dashboard.md §2, §4 "Fever API", §9):
 * switch the reader apps on, read the URL, the username and the password from the page, sign in to
 * /api/fever.php with md5(email:password) as a Fever client would, regenerate, and see the old key refused.
 */
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

async function fever(apiKey: string): Promise<{ api_version: number; auth: number; feeds?: unknown[] }> {
  const res = await fetch(`${baseUrl()}/api/fever.php?api&feeds`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `api_key=${apiKey}`,
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<{ api_version: number; auth: number; feeds?: unknown[] }>;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('Fever API settings', () => {
  it('enables the reader apps, shows the connection details, and a regenerated password voids the old key', async () => {
    const { context, page, email } = await signedInPage(browser, { prefix: 'fever', password: 'account-password-1', name: 'Fiona Fever' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/dashboard/settings');

    const section = page.getByRole('region', { name: t('settings.fever.title') });
    const toggle = section.getByRole('switch', { name: t('settings.fever.enable') });
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await section.getByLabel(t('settings.fever.feverUrl'), { exact: true }).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');

    expect(await section.getByLabel(t('settings.fever.feverUrl'), { exact: true }).inputValue()).toBe(`${baseUrl()}/api/fever.php`);
    expect(await section.getByLabel(t('settings.fever.greaderUrl'), { exact: true }).inputValue()).toBe(`${baseUrl()}/api/greader.php`);
    expect(await section.getByLabel(t('settings.fever.username'), { exact: true }).inputValue()).toBe(email);

    // Masked until the eye is pressed.
    const passwordField = section.getByLabel(t('settings.fever.password'), { exact: true });
    expect(await passwordField.getAttribute('type')).toBe('password');
    await section.getByRole('button', { name: t('settings.fever.showPassword') }).click();
    await section.getByRole('button', { name: t('settings.fever.hidePassword') }).waitFor();
    expect(await passwordField.getAttribute('type')).toBe('text');
    const password = await passwordField.inputValue();
    expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);

    // A Fever client with md5(email:password) is in.
    const oldKey = md5(`${email}:${password}`);
    const signedIn = await fever(oldKey);
    expect(signedIn).toMatchObject({ api_version: 3, auth: 1, feeds: [] });

    // Copy puts the password on the clipboard and says so, for 2 s.
    await section.getByRole('button', { name: t('settings.fever.copyPassword') }).click();
    await section.getByText(t('settings.apiPasswordCopied')).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await section.getByText(t('settings.apiPasswordCopied')).waitFor({ state: 'detached', timeout: 4000 });

    // The setting survives a reload.
    await page.reload();
    await section.getByLabel(t('settings.fever.feverUrl'), { exact: true }).waitFor();

    // Regenerate: a new password; the old key is refused at once, the new one works.
    await section.getByRole('button', { name: t('settings.fever.regenerate') }).click();
    // It asks first: a new password signs every connected app out.
    const confirm = page.getByRole('dialog', { name: t('settings.fever.regenerateConfirmTitle') });
    await confirm.getByRole('button', { name: t('settings.fever.regenerate') }).click();
    await section.getByText(t('settings.fever.regenerated')).waitFor();
    await section.getByRole('button', { name: t('settings.fever.showPassword') }).click();
    await section.getByRole('button', { name: t('settings.fever.hidePassword') }).waitFor();
    const fresh = await passwordField.inputValue();
    expect(fresh).not.toBe(password);
    expect(await fever(oldKey)).toEqual({ api_version: 3, auth: 0 });
    expect(await fever(md5(`${email}:${fresh}`))).toMatchObject({ auth: 1 });

    // Switched off: the apps are refused, the connection box goes.
    await toggle.click();
    await section.getByLabel(t('settings.fever.feverUrl'), { exact: true }).waitFor({ state: 'detached' });
    expect(await fever(md5(`${email}:${fresh}`))).toEqual({ api_version: 3, auth: 0 });
    await context.close();
  });
});
