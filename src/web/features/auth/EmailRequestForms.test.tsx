import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, flush, renderPublic, usePublicTestEnv } from '../../test/publicHarness.js';
import ForgotPasswordPage from './ForgotPasswordPage.js';
import ResendVerificationPage from './ResendVerificationPage.js';

const routes = { '/forgot-password': <ForgotPasswordPage />, '/resend-verification': <ResendVerificationPage /> };
const send = async (name: string, email: string) => {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name }));
  await flush();
};

describe('forgot password and resend verification (public-area-and-api.md §5, §8)', () => {
  usePublicTestEnv('en');

  it('forgot password: title, required e-mail, sending state, the code’s text, a way back', async () => {
    let release!: () => void;
    const calls = fakeServer({ 'POST /auth/forgot-password': () => [200, { status: 'success', code: 'PASSWORD_RESET_MAIL_SENT', message: 'ok' }] });
    renderPublic('/forgot-password', routes);
    expect(screen.getByRole('heading', { name: 'Reset password' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(calls).toHaveLength(0);

    const fetchMock = vi.mocked(globalThis.fetch);
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementationOnce((...args) => new Promise((resolve) => (release = () => resolve(original(...args)))));
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'erika@feeder.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sending …' }).disabled).toBe(true);
    release();
    await flush();
    expect(screen.getByText(/a mail with a reset link is on its way/)).toBeTruthy();
    // One way back to the sign-in once sent, not the footer's link besides the button.
    expect(screen.getAllByRole('link', { name: 'Back to sign in' })).toHaveLength(1);
  });

  it('forgot password failure: AUTH_{status}_0, else auth.resetError', async () => {
    let reply: [number, unknown] = [429, { message: 'slow down', code: 'RATE_LIMITED' }];
    fakeServer({ 'POST /auth/forgot-password': () => reply });
    renderPublic('/forgot-password', routes);
    await send('Send reset link', 'erika@feeder.test');
    expect(screen.getByRole('alert').textContent).toMatch(/Too many attempts/);
    reply = [418, undefined];
    await send('Send reset link', 'erika@feeder.test');
    expect(screen.getByRole('alert').textContent).toBe("We couldn't send the reset link. Please try again.");
  });

  it('resend: VERIFICATION_EMAIL_SENT and ACCOUNT_ALREADY_VERIFIED are success, other answers are errors', async () => {
    let reply: [number, unknown] = [200, { status: 'success', code: 'ACCOUNT_ALREADY_VERIFIED', message: 'ok' }];
    fakeServer({ 'POST /auth/resend-verification': () => reply });
    const first = renderPublic('/resend-verification', routes);
    await send('Send confirmation mail', 'erika@feeder.test');
    expect(screen.getByText('This account is already confirmed – you can sign in.')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Back to sign in' })).toHaveLength(1);
    first.unmount();

    reply = [200, { status: 'success', code: 'SOMETHING_ELSE', message: 'ok' }];
    renderPublic('/resend-verification', routes);
    expect(screen.getByLabelText<HTMLInputElement>('E-mail').value).toBe('erika@feeder.test'); // remembered
    await send('Send confirmation mail', 'erika@feeder.test');
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong. Please try again.');
    reply = [500, undefined];
    await send('Send confirmation mail', 'erika@feeder.test');
    expect(screen.getByRole('alert').textContent).toMatch(/Something went wrong on our side/);
  });
});
