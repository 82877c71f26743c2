import { describe, expect, it } from 'vitest';
import { CODES } from '../../common/codes.js';
import { FEED_ERROR_CODES } from '../../common/feed-errors.js';
import de from './de.json';
import en from './en.json';
import i18n, { readableKey } from './index.js';

/** Every leaf key of a nested translation object, dotted. */
function leaves(obj: object, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? leaves(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('readableKey (a missing key shows its last segment in readable form)', () => {
  it('turns camelCase and snake_case into a sentence', () => {
    expect(readableKey('auth.passwordTooShort')).toBe('Password too short');
    expect(readableKey('auth.errorCodes.SOME_NEW_CODE')).toBe('Some new code');
    expect(readableKey('landing.hero-title')).toBe('Hero title');
    expect(readableKey('single')).toBe('Single');
  });

  it('is what t() shows for a key that does not exist', async () => {
    await i18n.changeLanguage('en');
    expect(i18n.t('auth.thisKeyIsMissing')).toBe('This key is missing');
  });
});

describe('translations of the public area', () => {
  const sections = ['auth', 'landing', 'legal', 'cookies', 'header', 'footer', 'theme', 'language'] as const;

  it('have the same keys in German and English', () => {
    for (const section of sections) {
      const deKeys = leaves((de as Record<string, object>)[section] ?? {}).sort();
      const enKeys = leaves((en as Record<string, object>)[section] ?? {}).sort();
      expect(deKeys.length, section).toBeGreaterThan(0);
      expect(deKeys, section).toEqual(enKeys);
    }
  });

  it('translate every server code and the AUTH_{status}_{0,1} fallbacks in both languages', () => {
    const codes = [...Object.keys(CODES), 'NETWORK_ERROR'];
    for (const status of [400, 401, 403, 404, 409, 429, 500]) codes.push(`AUTH_${status}_0`, `AUTH_${status}_1`);
    for (const lng of ['de', 'en']) {
      for (const code of codes) expect(i18n.exists(`auth.errorCodes.${code}`, { lng }), `${lng} ${code}`).toBe(true);
    }
  });

  it('keep the spec’s key names', () => {
    for (const key of ['fieldRequired', 'passwordsDontMatch', 'passwordTooShort', 'invalidToken', 'resetError', 'passwordResetError']) {
      expect(i18n.exists(`auth.${key}`, { lng: 'de' }), key).toBe(true);
      expect(i18n.exists(`auth.${key}`, { lng: 'en' }), key).toBe(true);
    }
  });
});

describe('translations of feed errors', () => {
  it('translate every code a feed refresh can record, in both languages', () => {
    for (const lng of ['de', 'en']) {
      for (const code of Object.keys(FEED_ERROR_CODES)) expect(i18n.exists(`feedErrors.${code}`, { lng }), `${lng} ${code}`).toBe(true);
    }
    expect(leaves(de.feedErrors).sort()).toEqual(leaves(en.feedErrors).sort());
  });
});
