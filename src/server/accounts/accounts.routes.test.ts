import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, User } from '../../common/api.js';
import { DIALECTS } from '../test/dialects.js';
import { createTestApp, uniqueEmail, type TestApp } from '../test/test-app.js';
import { REFRESH_REUSE_GRACE_SECONDS } from './tokens.js';

const HOUR = 60 * 60 * 1000;
const USER_KEYS = ['created_at', 'email', 'fever_api_enabled', 'id', 'is_verified', 'language_preference', 'mark_read_on', 'name'];

for (const dialect of DIALECTS) {
  describe(`accounts API (${dialect})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ dialect });
    });
    afterAll(() => t.close());
    afterEach(() => {
      t.clock.reset();
      t.mailer.failing = false;
    });

    const post = (url: string, payload?: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(token) });
    const register = (body: Record<string, unknown>) => post('/auth/register', body);

    /** Registers through the API and returns the verification token from the mail. */
    async function registerUnverified(email = uniqueEmail('reg'), password = 'password123', language: 'de' | 'en' = 'en') {
      const res = await register({ name: 'Reg User', email, password, language });
      expect(res.statusCode).toBe(201);
      return { email, password, token: await t.mailer.lastToken(email, 'verification') };
    }

    describe('POST /auth/register', () => {
      it('creates an unverified account, normalises input and mails a verification link in the chosen language', async () => {
        const email = uniqueEmail('New.Person');
        const res = await register({ name: '  Ada Lovelace ', email: `  ${email.toUpperCase()} `, password: 'password123', language: 'en' });
        expect(res.statusCode).toBe(201);
        const body = res.json<{ user: User; email_sent: boolean }>();
        expect(body.email_sent).toBe(true);
        expect(Object.keys(body.user).sort()).toEqual(USER_KEYS);
        expect(body.user).toMatchObject({ name: 'Ada Lovelace', email: email.toLowerCase(), is_verified: false, language_preference: 'en' });
        expect(body.user.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(res.body).not.toContain('password');

        const mail = await t.mailer.lastMail(email.toLowerCase(), 'verification');
        expect(mail.subject).toBe('Confirm your e-mail address for Feeder');
        expect(mail.link).toMatch(/^http:\/\/feeder\.test\/verify-email\?token=[A-Za-z0-9_-]{43}$/);
        expect(mail.text).toContain(mail.link);
        expect(mail.html).toContain(mail.link);
        expect(mail.text).toContain('Hello Ada Lovelace');
      });

      it('defaults to German and writes the mail in German', async () => {
        const email = uniqueEmail('de');
        const res = await register({ name: 'Bernd', email, password: 'password123' });
        expect(res.statusCode).toBe(201);
        expect(res.json().user.language_preference).toBe('de');
        const mail = await t.mailer.lastMail(email, 'verification');
        expect(mail.subject).toBe('Bitte bestätige deine E-Mail-Adresse für Feeder');
        expect(mail.text).toContain('Hallo Bernd');
      });

      it('answers 409 EMAIL_ALREADY_REGISTERED for a taken address, in any case', async () => {
        const { email } = await registerUnverified();
        const res = await register({ name: 'Again', email: email.toUpperCase(), password: 'password123' });
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({ code: 'EMAIL_ALREADY_REGISTERED', message: expect.any(String) });
      });

      it('keeps the account and says email_sent: false when the mail cannot be sent', async () => {
        t.mailer.failing = true;
        const email = uniqueEmail('nomail');
        const res = await register({ name: 'No Mail', email, password: 'password123' });
        expect(res.statusCode).toBe(201);
        expect(res.json().email_sent).toBe(false);
        t.mailer.failing = false;
        expect((await register({ name: 'No Mail', email, password: 'password123' })).statusCode).toBe(409);
        // The person can ask for a new mail.
        expect((await post('/auth/resend-verification', { email })).statusCode).toBe(200);
        expect(await t.mailer.mailsTo(email, 'verification')).toHaveLength(1);
      });

      it.each([
        ['missing fields', { email: 'a@example.com' }, 'VALIDATION_ERROR'],
        ['a malformed address', { name: 'A', email: 'not-an-address', password: 'password123' }, 'INVALID_EMAIL'],
        ['an address without a domain dot', { name: 'A', email: 'a@localhost', password: 'password123' }, 'INVALID_EMAIL'],
        ['two addresses', { name: 'A', email: 'a@example.com, b@example.com', password: 'password123' }, 'INVALID_EMAIL'],
        ['a short password', { name: 'A', email: 'short@example.com', password: 'seven77' }, 'PASSWORD_TOO_SHORT'],
        ['an over-long password', { name: 'A', email: 'long@example.com', password: 'x'.repeat(1025) }, 'VALIDATION_ERROR'],
        ['a blank name', { name: '   ', email: 'blank@example.com', password: 'password123' }, 'NAME_REQUIRED'],
        ['an over-long name', { name: 'n'.repeat(201), email: 'n@example.com', password: 'password123' }, 'VALIDATION_ERROR'],
        ['an unknown language', { name: 'A', email: 'fr@example.com', password: 'password123', language: 'fr' }, 'VALIDATION_ERROR'],
        ['an object for a string', { name: { first: 'A' }, email: 'obj@example.com', password: 'password123' }, 'VALIDATION_ERROR'],
        ['a list for a string', { name: 'A', email: ['x@example.com', 'y@example.com'], password: 'password123' }, 'VALIDATION_ERROR'],
        // Bodies are validated without type coercion (http/validation.ts): a wrong scalar type is a 400 too.
        ['a null field', { name: 'A', email: null, password: 'password123' }, 'VALIDATION_ERROR'],
        ['a number for a string', { name: 'A', email: 'num@example.com', password: 12345678 }, 'VALIDATION_ERROR'],
        ['a boolean for a string', { name: true, email: 'bool@example.com', password: 'password123' }, 'VALIDATION_ERROR'],
      ])('refuses %s with 400', async (_label, body, code) => {
        const res = await register(body);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ code, message: expect.any(String) });
      });

      it('refuses a body that is not an object, malformed JSON and an oversized body with 4xx {message, code}', async () => {
        for (const payload of ['[]', '"text"', '42', 'null']) {
          const res = await t.app.inject({ method: 'POST', url: '/auth/register', headers: { 'content-type': 'application/json' }, payload });
          expect(res.statusCode, payload).toBe(400);
          expect(res.json().code).toBe('VALIDATION_ERROR');
        }
        const malformed = await t.app.inject({ method: 'POST', url: '/auth/register', headers: { 'content-type': 'application/json' }, payload: '{"name": "A",' });
        expect(malformed.statusCode).toBe(400);
        expect(malformed.json()).toEqual({ code: 'INVALID_JSON', message: expect.any(String) });
        const empty = await t.app.inject({ method: 'POST', url: '/auth/register', headers: { 'content-type': 'application/json' }, payload: '' });
        expect(empty.statusCode).toBe(400);
        const huge = await register({ name: 'A', email: 'big@example.com', password: 'x'.repeat(2 * 1024 * 1024) });
        expect(huge.statusCode).toBe(413);
        expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
        const form = await t.app.inject({ method: 'POST', url: '/auth/register', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=A' });
        expect(form.statusCode).toBe(415);
        expect(form.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
        const proto = await t.app.inject({
          method: 'POST',
          url: '/auth/register',
          headers: { 'content-type': 'application/json' },
          payload: '{"__proto__": {"x": 1}, "name": "A"}',
        });
        expect(proto.statusCode).toBe(400);
      });

      it('only lets the configured domains register, and /api/config tells the web app which', async () => {
        const restricted = await createTestApp({ database: t.database, env: { REGISTRATION_EMAIL_DOMAINS: 'Example.com, @feeder.test' } });
        try {
          const cfg = await restricted.app.inject({ method: 'GET', url: '/api/config' });
          expect(cfg.statusCode).toBe(200);
          expect(cfg.json()).toEqual({
            registration_email_domains: ['example.com', 'feeder.test'],
            registration_restricted: true,
            legal: { status: 'unavailable', operator: null },
          });

          const denied = await restricted.app.inject({
            method: 'POST',
            url: '/auth/register',
            payload: { name: 'X', email: `x-${Date.now()}@other.org`, password: 'password123' },
          });
          expect(denied.statusCode).toBe(403);
          expect(denied.json()).toEqual({ code: 'REGISTRATION_DOMAIN_NOT_ALLOWED', message: expect.any(String) });
          // A subdomain is another domain.
          const sub = await restricted.app.inject({
            method: 'POST',
            url: '/auth/register',
            payload: { name: 'X', email: `x-${Date.now()}@mail.example.com`, password: 'password123' },
          });
          expect(sub.statusCode).toBe(403);
          const allowed = await restricted.app.inject({
            method: 'POST',
            url: '/auth/register',
            payload: { name: 'X', email: `x-${Date.now()}@FEEDER.test`, password: 'password123' },
          });
          expect(allowed.statusCode).toBe(201);
        } finally {
          await restricted.close();
        }
        const open = await t.app.inject({ method: 'GET', url: '/api/config' });
        expect(open.json()).toEqual({ registration_email_domains: [], registration_restricted: false, legal: { status: 'unavailable', operator: null } });
      });

      it('/api/config names the operator of the legal pages from OPERATOR_*, the example only on a local address', async () => {
        const cases: [Record<string, string>, unknown][] = [
          [
            {
              OPERATOR_NAME: 'Ada Example',
              OPERATOR_ADDRESS: 'Musterstraße 1 | 12345 Berlin |Deutschland',
              OPERATOR_EMAIL: 'ada@example.org',
              OPERATOR_PHONE: '+49 30 1234567',
            },
            {
              status: 'configured',
              operator: {
                name: 'Ada Example',
                address: ['Musterstraße 1', '12345 Berlin', 'Deutschland'],
                email: 'ada@example.org',
                phone: '+49 30 1234567',
                representative: null,
              },
            },
          ],
          [{ PUBLIC_URL: 'http://localhost:3000' }, { status: 'example', operator: null }],
          [
            { PUBLIC_URL: 'http://127.0.0.1:8080', OPERATOR_NAME: 'Only a name' },
            { status: 'example', operator: null },
          ],
          [
            { PUBLIC_URL: 'https://feeds.example.com', OPERATOR_NAME: 'Only a name', OPERATOR_EMAIL: 'a@example.org' },
            { status: 'unavailable', operator: null },
          ],
        ];
        for (const [env, legal] of cases) {
          const other = await createTestApp({ database: t.database, env });
          try {
            const cfg = await other.app.inject({ method: 'GET', url: '/api/config' });
            expect(cfg.statusCode).toBe(200);
            expect(cfg.json().legal, JSON.stringify(env)).toEqual(legal);
          } finally {
            await other.close();
          }
        }
      });
    });

    describe('GET /auth/verify-email', () => {
      const verify = (token?: string) =>
        t.app.inject({ method: 'GET', url: token === undefined ? '/auth/verify-email' : `/auth/verify-email?token=${encodeURIComponent(token)}` });

      it('confirms the address once; the link then is INVALID_TOKEN', async () => {
        const { email, password, token } = await registerUnverified();
        const ok = await verify(token);
        expect(ok.statusCode).toBe(200);
        expect(ok.json()).toEqual({ status: 'success', code: 'EMAIL_VERIFIED', message: expect.any(String) });
        const login = await post('/auth/login', { email, password });
        expect(login.statusCode).toBe(200);
        expect(login.json().user.is_verified).toBe(true);

        const again = await verify(token);
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
      });

      it('answers INVALID_TOKEN for unknown, empty and missing tokens', async () => {
        for (const token of ['nope', '', undefined, 'x'.repeat(600)]) {
          const res = await verify(token);
          expect(res.statusCode, String(token)).toBe(400);
          expect(res.json().code).toBe(token && token.length > 512 ? 'VALIDATION_ERROR' : 'INVALID_TOKEN');
        }
      });

      it('answers TOKEN_EXPIRED after 24 hours', async () => {
        const { token } = await registerUnverified();
        t.clock.advance(24 * HOUR - 60_000);
        t.clock.advance(2 * 60_000);
        const res = await verify(token);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ status: 'error', code: 'TOKEN_EXPIRED', message: expect.any(String) });
      });

      it('still works just before 24 hours', async () => {
        const { token } = await registerUnverified();
        t.clock.advance(24 * HOUR - 60_000);
        expect((await verify(token)).statusCode).toBe(200);
      });
    });

    describe('POST /auth/resend-verification', () => {
      const resend = (email: unknown) => post('/auth/resend-verification', { email });
      const SAME = { status: 'success', code: 'VERIFICATION_EMAIL_SENT', message: expect.any(String) };

      it('sends a new link to an unconfirmed account and spends the old one', async () => {
        const { email, token: first } = await registerUnverified();
        const res = await resend(` ${email.toUpperCase()} `);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(SAME);
        const second = await t.mailer.lastToken(email, 'verification');
        expect(second).not.toBe(first);
        expect((await t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${first}` })).json().code).toBe('INVALID_TOKEN');
        expect((await t.app.inject({ method: 'GET', url: `/auth/verify-email?token=${second}` })).statusCode).toBe(200);
      });

      it('tells a confirmed account by mail that it is confirmed, with a sign-in link', async () => {
        const { email } = await t.createUser({ language: 'de' });
        const res = await resend(email);
        expect(res.json()).toEqual(SAME);
        const mail = await t.mailer.lastMail(email, 'already-verified');
        expect(mail.link).toBe('http://feeder.test/login');
        expect(mail.subject).toBe('Dein Feeder-Konto ist bereits bestätigt');
        expect(await t.mailer.mailsTo(email, 'verification')).toHaveLength(0);
      });

      it('gives the same answer for an unknown or malformed address and sends nothing', async () => {
        const before = t.mailer.sent.length;
        for (const email of [uniqueEmail('ghost'), 'not an address']) {
          const res = await resend(email);
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual(SAME);
        }
        await t.mailer.settle();
        expect(t.mailer.sent.length).toBe(before);
      });

      it('refuses a missing or non-string e-mail with 400', async () => {
        expect((await post('/auth/resend-verification', {})).statusCode).toBe(400);
        expect((await resend({ a: 1 })).statusCode).toBe(400);
      });
    });

    describe('POST /auth/login', () => {
      it('signs in a verified user with a token pair, whatever the case and spacing of the address', async () => {
        const { email, password, user } = await t.createUser();
        const res = await post('/auth/login', { email: `  ${email.toUpperCase()}`, password });
        expect(res.statusCode).toBe(200);
        const body = res.json<LoginResponse>();
        expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token', 'user']);
        expect(body.user).toEqual(user);
        expect(body.access_token.split('.')).toHaveLength(3);
        expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect((await me(body.access_token)).json()).toEqual({ user });
      });

      it('answers 401 AUTH_401_1 for a wrong password and an unknown address alike', async () => {
        const { email } = await t.createUser();
        const wrong = await post('/auth/login', { email, password: 'wrong password' });
        const unknown = await post('/auth/login', { email: uniqueEmail('nobody'), password: 'wrong password' });
        for (const res of [wrong, unknown]) {
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual({ code: 'AUTH_401_1', message: 'E-mail or password is wrong.' });
        }
      });

      it('answers 403 AUTH_403_1 for an unconfirmed account only when the password is right', async () => {
        const { email, password } = await t.createUser({ verified: false });
        const res = await post('/auth/login', { email, password });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ code: 'AUTH_403_1', message: expect.any(String) });
        expect((await post('/auth/login', { email, password: 'wrong password' })).statusCode).toBe(401);
      });

      it('refuses incomplete or ill-typed bodies with 400', async () => {
        expect((await post('/auth/login', { email: 'a@example.com' })).statusCode).toBe(400);
        expect((await post('/auth/login', { email: { $ne: '' }, password: 'x' })).statusCode).toBe(400);
        expect((await post('/auth/login')).statusCode).toBe(400);
      });
    });

    describe('POST /auth/refresh', () => {
      const refresh = (token: string) => post('/auth/refresh', undefined, t.bearer(token));

      it('rotates: a bearer refresh token (no body) gives a new pair, and the new access token works', async () => {
        const session = await t.signUp();
        const res = await refresh(session.refresh_token);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['access_token', 'refresh_token']);
        expect(body.refresh_token).not.toBe(session.refresh_token);
        expect((await me(body.access_token)).statusCode).toBe(200);
        expect((await refresh(body.refresh_token)).statusCode).toBe(200);
      });

      it('accepts an empty JSON body, {} and {refresh_token} in the body', async () => {
        const s = await t.signUp();
        const empty = await t.app.inject({
          method: 'POST',
          url: '/auth/refresh',
          headers: { ...t.bearer(s.refresh_token), 'content-type': 'application/json' },
          payload: '',
        });
        expect(empty.statusCode).toBe(200);
        const braces = await post('/auth/refresh', {}, t.bearer(empty.json().refresh_token));
        expect(braces.statusCode).toBe(200);
        // A client sending its access token as bearer and the refresh token in the body.
        const inBody = await post('/auth/refresh', { refresh_token: braces.json().refresh_token }, t.bearer(braces.json().access_token));
        expect(inBody.statusCode).toBe(200);
      });

      it('answers 401 INVALID_REFRESH_TOKEN without a token, for garbage, and for an access token', async () => {
        const s = await t.signUp();
        for (const res of [await post('/auth/refresh'), await refresh('garbage'), await refresh(s.access_token), await post('/auth/refresh', { refresh_token: 'x' })]) {
          expect(res.statusCode).toBe(401);
          expect(res.json()).toEqual({ code: 'INVALID_REFRESH_TOKEN', message: expect.any(String) });
        }
        expect((await t.app.inject({ method: 'POST', url: '/auth/refresh', headers: { 'content-type': 'application/json' }, payload: '{bad' })).statusCode).toBe(400);
      });

      it('revokes the whole family when a spent token comes back after the grace window, and leaves other sign-ins alone', async () => {
        const s = await t.signUp();
        const other = await t.login(s.email, s.password);
        const next = (await refresh(s.refresh_token)).json();
        t.clock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 + 1000);
        const reuse = await refresh(s.refresh_token);
        expect(reuse.statusCode).toBe(401);
        expect(reuse.json().code).toBe('INVALID_REFRESH_TOKEN');
        // The legitimate holder's newer token is dead too.
        expect((await refresh(next.refresh_token)).statusCode).toBe(401);
        expect((await refresh(other.refresh_token)).statusCode).toBe(200);
      });

      it('answers concurrent exchanges of one token with the same rotation, which then works on', async () => {
        const s = await t.signUp();
        const results = await Promise.all(Array.from({ length: 6 }, () => refresh(s.refresh_token)));
        expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
        const tokens = new Set(results.map((r) => r.json().refresh_token));
        expect(tokens.size).toBe(1);
        const [next] = [...tokens] as string[];
        for (const r of results) expect((await me(r.json().access_token)).statusCode).toBe(200);
        expect((await refresh(next)).statusCode).toBe(200);
      });

      it('answers a retry after a lost answer with the same new token within the grace window, and signs no one out', async () => {
        const s = await t.signUp();
        const first = (await refresh(s.refresh_token)).json();
        // The answer was lost; the client retries with the token it still has.
        t.clock.advance(REFRESH_REUSE_GRACE_SECONDS * 1000 - 1000);
        const retry = await refresh(s.refresh_token);
        expect(retry.statusCode, retry.body).toBe(200);
        expect(retry.json().refresh_token).toBe(first.refresh_token);
        expect((await me(retry.json().access_token)).statusCode).toBe(200);
        const after = await refresh(retry.json().refresh_token);
        expect(after.statusCode).toBe(200);
        // Once the new token has been used, the old one coming back is a stolen copy even within the window.
        const late = await refresh(s.refresh_token);
        expect(late.statusCode).toBe(401);
        expect((await refresh(after.json().refresh_token)).statusCode).toBe(401);
      });

      it('expires refresh tokens after 30 days', async () => {
        const s = await t.signUp();
        t.clock.advance(30 * 24 * HOUR + 60_000);
        expect((await refresh(s.refresh_token)).statusCode).toBe(401);
      });
    });

    describe('POST /auth/logout', () => {
      it('revokes the sign-in of the bearer refresh token and answers 204', async () => {
        const s = await t.signUp();
        const other = await t.login(s.email, s.password);
        const res = await post('/auth/logout', undefined, t.bearer(s.refresh_token));
        expect(res.statusCode).toBe(204);
        expect(res.body).toBe('');
        expect((await post('/auth/refresh', undefined, t.bearer(s.refresh_token))).statusCode).toBe(401);
        expect((await post('/auth/refresh', undefined, t.bearer(other.refresh_token))).statusCode).toBe(200);
      });

      it('takes the token from the body too, and answers 204 for no, unknown or spent tokens', async () => {
        const s = await t.signUp();
        expect((await post('/auth/logout', { refresh_token: s.refresh_token }, t.bearer(s.access_token))).statusCode).toBe(204);
        expect((await post('/auth/refresh', { refresh_token: s.refresh_token })).statusCode).toBe(401);
        expect((await post('/auth/logout')).statusCode).toBe(204);
        expect((await post('/auth/logout', {})).statusCode).toBe(204);
        expect((await post('/auth/logout', undefined, t.bearer('unknown'))).statusCode).toBe(204);
        expect((await post('/auth/logout', undefined, t.bearer(s.refresh_token))).statusCode).toBe(204);
      });
    });

    describe('GET and PUT /auth/me', () => {
      const put = (token: string, payload: unknown) => t.app.inject({ method: 'PUT', url: '/auth/me', headers: t.bearer(token), payload: payload as object });

      it('returns the signed-in user', async () => {
        const s = await t.signUp({ name: 'Me Myself', language: 'de' });
        const res = await me(s.access_token);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ user: { ...s.user, name: 'Me Myself', language_preference: 'de' } });
      });

      it('needs a valid, unexpired access token of an existing user', async () => {
        const s = await t.signUp();
        const none = await t.app.inject({ method: 'GET', url: '/auth/me' });
        expect(none.statusCode).toBe(401);
        expect(none.json()).toEqual({ code: 'UNAUTHORIZED', message: expect.any(String) });
        for (const token of ['garbage', s.refresh_token, `${s.access_token}x`]) {
          const res = await me(token);
          expect(res.statusCode).toBe(401);
          expect(res.json().code).toBe('TOKEN_INVALID');
        }
        t.clock.advance(15 * 60_000 + 1000);
        expect((await me(s.access_token)).json().code).toBe('TOKEN_INVALID');
        t.clock.reset();
        await t.database.db.deleteFrom('users').where('id', '=', s.user.id).execute();
        const gone = await me(s.access_token);
        expect(gone.statusCode).toBe(401);
        expect(gone.json().code).toBe('USER_NOT_FOUND');
      });

      it('updates name and language with PROFILE_UPDATED', async () => {
        const s = await t.signUp();
        const res = await put(s.access_token, { name: '  New Name ', language_preference: 'de' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ user: { ...s.user, name: 'New Name', language_preference: 'de' }, message: 'Profile updated.', code: 'PROFILE_UPDATED' });
        expect((await me(s.access_token)).json().user.name).toBe('New Name');
      });

      it('keeps when articles are marked read (mark_read_on), open by default, for every device of the user', async () => {
        const s = await t.signUp();
        expect(s.user.mark_read_on).toBe('open');
        for (const value of ['scroll', 'manual', 'open'] as const) {
          const res = await put(s.access_token, { mark_read_on: value });
          expect(res.statusCode, res.body).toBe(200);
          expect(res.json()).toMatchObject({ user: { ...s.user, mark_read_on: value }, code: 'PROFILE_UPDATED' });
          const elsewhere = await t.login(s.email, s.password);
          expect(elsewhere.user.mark_read_on).toBe(value);
          expect((await me(elsewhere.access_token)).json().user.mark_read_on).toBe(value);
        }
        // The whole user sent back (as the web app may) is fine too.
        expect((await put(s.access_token, { ...s.user, mark_read_on: 'manual' })).json().user.mark_read_on).toBe('manual');
        for (const bad of ['never', '', 'OPEN', 1, null, ['open'], 'open\u0000']) {
          const res = await put(s.access_token, { mark_read_on: bad });
          expect(res.statusCode, JSON.stringify(bad)).toBe(400);
          expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
        }
        expect((await me(s.access_token)).json().user.mark_read_on).toBe('manual');
      });

      it('refuses an empty name, a changed e-mail, nothing to update and bad types', async () => {
        const s = await t.signUp();
        const cases: Array<[unknown, string]> = [
          [{ name: '  ' }, 'NAME_REQUIRED'],
          [{ email: 'someone-else@example.com' }, 'VALIDATION_ERROR'],
          [{}, 'VALIDATION_ERROR'],
          [{ language_preference: 'fr' }, 'VALIDATION_ERROR'],
          [{ name: ['a', 'b'] }, 'VALIDATION_ERROR'],
        ];
        for (const [payload, code] of cases) {
          const res = await put(s.access_token, payload);
          expect(res.statusCode, JSON.stringify(payload)).toBe(400);
          expect(res.json().code).toBe(code);
        }
        expect((await put(s.access_token, { email: 'someone-else@example.com' })).json().message).toBe('The e-mail address cannot be changed.');
        // Sending the unchanged address back (a client returning the whole user) is fine.
        expect((await put(s.access_token, { name: 'Same', email: s.email.toUpperCase() })).statusCode).toBe(200);
      });

      it('changes the password after checking the old one, ends every sign-in and hands out a fresh pair', async () => {
        const s = await t.signUp();
        const other = await t.login(s.email, s.password);
        const wrongOld = await put(s.access_token, { password: 'brand new password', old_password: 'not it' });
        expect(wrongOld.statusCode).toBe(400);
        expect(wrongOld.json().code).toBe('INVALID_CURRENT_PASSWORD');
        expect((await put(s.access_token, { password: 'brand new password' })).json().code).toBe('INVALID_CURRENT_PASSWORD');
        expect((await put(s.access_token, { password: 'short', old_password: s.password })).json().code).toBe('PASSWORD_TOO_SHORT');

        const res = await put(s.access_token, { password: 'brand new password', old_password: s.password });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body).toMatchObject({ code: 'PASSWORD_UPDATED', message: 'Password updated.', user: s.user });
        expect(body.access_token.split('.')).toHaveLength(3);
        expect(typeof body.refresh_token).toBe('string');

        for (const old of [s.refresh_token, other.refresh_token]) {
          expect((await post('/auth/refresh', undefined, t.bearer(old))).statusCode).toBe(401);
        }
        expect((await post('/auth/refresh', undefined, t.bearer(body.refresh_token))).statusCode).toBe(200);
        // Access tokens issued before the change are void at once; the fresh one works.
        for (const old of [s.access_token, other.access_token]) {
          const me = await t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(old) });
          expect(me.statusCode).toBe(401);
          expect(me.json().code).toBe('TOKEN_INVALID');
        }
        expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(body.access_token) })).statusCode).toBe(200);
        expect((await post('/auth/login', { email: s.email, password: s.password })).statusCode).toBe(401);
        expect((await post('/auth/login', { email: s.email, password: 'brand new password' })).statusCode).toBe(200);
      });
    });

    describe('POST /auth/verify-password', () => {
      it('says whether the password is the signed-in user’s', async () => {
        const s = await t.signUp();
        const yes = await post('/auth/verify-password', { password: s.password }, t.bearer(s.access_token));
        expect(yes.statusCode).toBe(200);
        expect(yes.json()).toEqual({ valid: true });
        expect((await post('/auth/verify-password', { password: 'nope nope' }, t.bearer(s.access_token))).json()).toEqual({ valid: false });
        expect((await post('/auth/verify-password', { password: s.password })).statusCode).toBe(401);
        expect((await post('/auth/verify-password', {}, t.bearer(s.access_token))).statusCode).toBe(400);
      });
    });

    describe('password recovery', () => {
      const forgot = (email: string) => post('/auth/forgot-password', { email });
      const reset = (token: unknown, password: string) => post('/auth/reset-password', { token, password });
      const SENT = { status: 'success', code: 'PASSWORD_RESET_MAIL_SENT', message: expect.any(String) };

      it('answers the same for known and unknown addresses; only a known one gets a mail', async () => {
        const { email } = await t.createUser();
        const ghost = uniqueEmail('ghost');
        const known = await forgot(email);
        const unknown = await forgot(ghost);
        expect(known.statusCode).toBe(200);
        expect(unknown.statusCode).toBe(200);
        expect(known.json()).toEqual(SENT);
        expect(unknown.body).toBe(known.body);
        expect(await t.mailer.mailsTo(email, 'password-reset')).toHaveLength(1);
        expect(await t.mailer.mailsTo(ghost)).toHaveLength(0);
        const mail = await t.mailer.lastMail(email, 'password-reset');
        expect(mail.subject).toBe('Reset your Feeder password');
        expect(mail.link).toMatch(/^http:\/\/feeder\.test\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
      });

      it('of links asked for at once (their work runs after the answers), only the newest mailed one works', async () => {
        const { email } = await t.createUser();
        await Promise.all([forgot(email), forgot(email), forgot(email)]);
        const mails = await t.mailer.mailsTo(email, 'password-reset');
        expect(mails).toHaveLength(3);
        const tokens = mails.map((m) => new URL(m.link).searchParams.get('token'));
        const results = [];
        for (const token of tokens) results.push((await reset(token, 'a fresh password')).statusCode);
        expect(results).toEqual([400, 400, 200]);
      });

      it('resets once: new password works, sign-ins end, the account counts as confirmed, the link is spent', async () => {
        const { email, password } = await t.createUser({ verified: false });
        await t.database.db.updateTable('users').set({ is_verified: 1 }).where('email', '=', email).execute();
        const session = await t.login(email, password);
        await t.database.db.updateTable('users').set({ is_verified: 0 }).where('email', '=', email).execute();
        await forgot(email);
        const token = await t.mailer.lastToken(email, 'password-reset');

        const res = await reset(token, 'a fresh password');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ status: 'success', code: 'PASSWORD_RESET_SUCCESS', message: expect.any(String) });
        const login = await post('/auth/login', { email, password: 'a fresh password' });
        expect(login.statusCode).toBe(200);
        expect(login.json().user.is_verified).toBe(true);
        expect((await post('/auth/login', { email, password })).statusCode).toBe(401);
        expect((await post('/auth/refresh', undefined, t.bearer(session.refresh_token))).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(session.access_token) })).json().code).toBe('TOKEN_INVALID');
        expect((await t.app.inject({ method: 'GET', url: '/auth/me', headers: t.bearer(login.json().access_token) })).statusCode).toBe(200);

        const again = await reset(token, 'another password');
        expect(again.statusCode).toBe(400);
        expect(again.json()).toEqual({ status: 'error', code: 'INVALID_TOKEN', message: expect.any(String) });
      });

      it('keeps only the newest link, refuses short passwords without spending the link, and expires after 1 hour', async () => {
        const { email } = await t.createUser({ language: 'de' });
        await forgot(email);
        const first = await t.mailer.lastToken(email, 'password-reset');
        await forgot(email);
        const second = await t.mailer.lastToken(email, 'password-reset');
        expect((await t.mailer.lastMail(email, 'password-reset')).subject).toBe('Passwort für Feeder zurücksetzen');
        expect((await reset(first, 'long enough 1')).json().code).toBe('INVALID_TOKEN');

        const short = await reset(second, 'short');
        expect(short.statusCode).toBe(400);
        expect(short.json()).toEqual({ status: 'error', code: 'PASSWORD_TOO_SHORT', message: expect.any(String) });

        t.clock.advance(HOUR + 1000);
        const expired = await reset(second, 'long enough 2');
        expect(expired.statusCode).toBe(400);
        expect(expired.json()).toEqual({ status: 'error', code: 'TOKEN_EXPIRED', message: expect.any(String) });
        t.clock.reset();
        expect((await reset(second, 'long enough 3')).statusCode).toBe(200);
      });

      it('refuses missing, unknown and ill-typed tokens', async () => {
        expect((await post('/auth/reset-password', { password: 'long enough' })).json().code).toBe('INVALID_TOKEN');
        expect((await reset('unknown', 'long enough')).json().code).toBe('INVALID_TOKEN');
        expect((await reset({ t: 1 }, 'long enough')).statusCode).toBe(400);
        expect((await post('/auth/reset-password', { token: 'x' })).statusCode).toBe(400);
        expect((await post('/auth/forgot-password', {})).statusCode).toBe(400);
      });
    });

    describe('POST /api/users/update-language', () => {
      it('stores the language of the signed-in user', async () => {
        const s = await t.signUp({ language: 'en' });
        const res = await post('/api/users/update-language', { language: 'de' }, t.bearer(s.access_token));
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ user: { ...s.user, language_preference: 'de' } });
        expect((await post('/api/users/update-language', { language: 'fr' }, t.bearer(s.access_token))).statusCode).toBe(400);
        const anon = await post('/api/users/update-language', { language: 'de' });
        expect(anon.statusCode).toBe(401);
        expect(anon.json().code).toBe('UNAUTHORIZED');
      });
    });
  });
}
