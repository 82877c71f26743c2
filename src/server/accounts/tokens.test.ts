import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { PasswordHasher, TEST_PASSWORD_HASHING, DEFAULT_PASSWORD_HASHING } from './passwords.js';
import { AccessTokens, generateOpaqueToken, hashToken, looksLikeJwt } from './tokens.js';

const SECRET = 'a-test-secret-of-enough-length';

describe('access tokens', () => {
  it('round-trips the user id and expires after 15 minutes', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const tokens = new AccessTokens(SECRET, () => now);
    const jwt = await tokens.sign(42, 3);
    expect(looksLikeJwt(jwt)).toBe(true);
    expect(await tokens.verify(jwt)).toEqual({ ok: true, userId: 42, epoch: 3 });
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
    expect(payload).toMatchObject({ sub: '42', typ: 'access', iss: 'feeder', sep: 3 });
    expect(payload.exp - payload.iat).toBe(15 * 60);
    now = new Date(now.getTime() + 15 * 60_000 - 1000);
    expect((await tokens.verify(jwt)).ok).toBe(true);
    now = new Date(now.getTime() + 2000);
    expect(await tokens.verify(jwt)).toEqual({ ok: false });
  });

  it('refuses tokens of another secret, unsigned tokens, other token types and junk', async () => {
    const tokens = new AccessTokens(SECRET);
    const other = new AccessTokens('another-secret-of-enough-length');
    expect((await tokens.verify(await other.sign(1, 0))).ok).toBe(false);
    const unsigned = new UnsecuredJWT({ typ: 'access' }).setSubject('1').setIssuer('feeder').setIssuedAt().setExpirationTime('5m').encode();
    expect((await tokens.verify(unsigned)).ok).toBe(false);
    // Signed with the raw secret rather than the derived key: refused.
    const rawKey = await new SignJWT({ typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('feeder')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode(SECRET));
    expect((await tokens.verify(rawKey)).ok).toBe(false);
    for (const junk of ['', 'a.b.c', 'not-a-jwt', '....', 'eyJhbGciOiJIUzI1NiJ9.e30.']) expect((await tokens.verify(junk)).ok).toBe(false);
  });
});

describe('opaque tokens', () => {
  it('are 43 base64url characters, unique, never JWT-like, stored as a 64-hex hash', () => {
    const a = generateOpaqueToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateOpaqueToken()).not.toBe(a);
    expect(looksLikeJwt(a)).toBe(false);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hasher = new PasswordHasher(TEST_PASSWORD_HASHING);
    const hash = await hasher.hash('secret password');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await hasher.verify(hash, 'secret password')).toBe(true);
    expect(await hasher.verify(hash, 'Secret password')).toBe(false);
    expect(await hasher.verify('not a hash', 'x')).toBe(false);
    expect(await hasher.verifyAgainstDummy('anything')).toBe(false);
  });

  it('uses the OWASP baseline by default', () => {
    expect(DEFAULT_PASSWORD_HASHING).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });
});
