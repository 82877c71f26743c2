import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fakeServer, flush, renderPublic, type Reply, usePublicTestEnv } from '../../test/publicHarness.js';
import RegisterPage from './RegisterPage.js';

const routes = { '/register': <RegisterPage />, '/login': <p>login</p> };
const config = (domains: string[]): Reply => [200, { registration_email_domains: domains, registration_restricted: domains.length > 0 }];

function fill(values: { name?: string; email?: string; password?: string; confirm?: string }) {
  if (values.name !== undefined) fireEvent.change(screen.getByLabelText('Name'), { target: { value: values.name } });
  if (values.email !== undefined) fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: values.email } });
  if (values.password !== undefined) fireEvent.change(screen.getByLabelText('Password'), { target: { value: values.password } });
  if (values.confirm !== undefined) fireEvent.change(screen.getByLabelText('Confirm password'), { target: { value: values.confirm } });
}
const submit = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
  await flush();
};

describe('registration screen (public-area-and-api.md §2, §5, §8)', () => {
  usePublicTestEnv('en');

  it('checks the fields before sending', async () => {
    const calls = fakeServer({ 'GET /api/config': () => config([]) });
    renderPublic('/register', routes);
    await submit();
    expect(screen.getAllByText('This field is required.')).toHaveLength(4);
    fill({ name: 'Erika', email: 'erika@feeder.test', password: 'short', confirm: 'other' });
    await submit();
    expect(screen.getByText('The password must be at least 8 characters long.')).toBeTruthy();
    expect(screen.getByText("The passwords don't match.")).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /auth/register')).toHaveLength(0);
  });

  it('shows the registration-closed message for other domains, before sending', async () => {
    const calls = fakeServer({ 'GET /api/config': () => config(['feeder.test']) });
    renderPublic('/register', routes);
    await flush();
    fill({ name: 'Erika', email: 'erika@gmail.com', password: 'long-enough', confirm: 'long-enough' });
    await submit();
    expect(screen.getByText('Registration is closed for this e-mail address.')).toBeTruthy();
    expect(calls.filter((c) => c.key === 'POST /auth/register')).toHaveLength(0);
  });

  it('registers in the interface language, hides the form, then goes to /login after 5 s', async () => {
    const calls = fakeServer({
      'GET /api/config': () => config([]),
      'POST /auth/register': () => [201, { user: { id: 1 }, email_sent: true }],
    });
    renderPublic('/register', routes);
    fill({ name: 'Erika', email: 'erika@feeder.test', password: 'long-enough', confirm: 'long-enough' });
    await submit();
    expect(calls.find((c) => c.key === 'POST /auth/register')?.body).toEqual({ name: 'Erika', email: 'erika@feeder.test', password: 'long-enough', language: 'en' });
    expect(screen.getByText(/We've sent a confirmation link to erika@feeder.test/)).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(4999));
    expect(screen.getByTestId('location').textContent).toBe('/register');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByTestId('location').textContent).toBe('/login');
  });

  it('shows what went wrong on the server', async () => {
    fakeServer({
      'GET /api/config': () => config([]),
      'POST /auth/register': () => [409, { message: 'An account with this e-mail address already exists.', code: 'EMAIL_ALREADY_REGISTERED' }],
    });
    renderPublic('/register', routes);
    fill({ name: 'Erika', email: 'erika@feeder.test', password: 'long-enough', confirm: 'long-enough' });
    await submit();
    expect(screen.getByRole('alert').textContent).toBe('An account with this e-mail address already exists.');
  });
});
