import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, flush, renderPublic, usePublicTestEnv } from '../../test/publicHarness.js';
import ResetPasswordPage from './ResetPasswordPage.js';

const routes = { '/reset-password': <ResetPasswordPage />, '/login': <p>login</p> };

function fill(password: string, confirm: string) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: confirm } });
}
const submit = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
  await flush();
};

describe('reset-password screen (public-area-and-api.md §2, §4, §5, §8)', () => {
  usePublicTestEnv('en');

  it('without a token: auth.invalidToken, no form, a way to a new link', () => {
    renderPublic('/reset-password', routes);
    expect(screen.getByRole('alert').textContent).toMatch(/This link is invalid or incomplete/);
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new link' }).getAttribute('href')).toBe('/forgot-password');
  });

  it('validates both fields', async () => {
    const calls = fakeServer({});
    renderPublic('/reset-password?token=t1', routes);
    await submit();
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    fill('1234567', '1234567');
    await submit();
    expect(screen.getByText('The password must be at least 8 characters long.')).toBeTruthy();
    fill('12345678', '87654321');
    await submit();
    expect(screen.getByText("The passwords don't match.")).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('success: message, a visible 5-second countdown, then /login', async () => {
    const calls = fakeServer({ 'POST /auth/reset-password': () => [200, { status: 'success', code: 'PASSWORD_RESET_SUCCESS', message: 'ok' }] });
    renderPublic('/reset-password?token=t1', routes);
    fill('a-new-password', 'a-new-password');
    await submit();
    expect(calls[0].body).toEqual({ token: 't1', password: 'a-new-password' });
    expect(screen.getByText('Your password has been changed. You can sign in with it now.')).toBeTruthy();
    expect(screen.getByText('Going to the sign-in page in 5 seconds …')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText('Going to the sign-in page in 3 seconds …')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('failures: the code’s text, else AUTH_{status}_0, else auth.passwordResetError', async () => {
    let reply: [number, unknown] = [400, { status: 'error', code: 'TOKEN_EXPIRED', message: 'expired' }];
    fakeServer({ 'POST /auth/reset-password': () => reply });
    renderPublic('/reset-password?token=t1', routes);
    fill('a-new-password', 'a-new-password');
    await submit();
    expect(screen.getByText('This link has expired.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
    reply = [500, undefined];
    await submit();
    expect(screen.getByRole('alert').textContent).toMatch(/Something went wrong on our side/);
    reply = [418, { message: 'teapot', code: 'TEAPOT' }];
    await submit();
    expect(screen.getByRole('alert').textContent).toBe("We couldn't change your password. Please try again.");
    reply = [200, { status: 'error', code: 'X' }];
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('Something went wrong. Please try again.');
  });
});
