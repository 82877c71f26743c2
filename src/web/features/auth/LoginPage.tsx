import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { LoginResponse } from '../../../common/api.js';
import { REDIRECT_AFTER_LOGIN_MS } from '../../../common/constants.js';
import { useAuth } from '../../lib/auth.js';
import { Alert } from '../../components/ui/Alert.js';
import { api } from '../../lib/api.js';
import { storage } from '../../lib/storage.js';
import { AuthLayout, textLinkClass } from './components/AuthLayout.js';
import { EmailField } from './components/EmailField.js';
import { PasswordField } from './components/PasswordField.js';
import { SubmitButton } from './components/SubmitButton.js';
import { loginErrorKey, NOT_VERIFIED_KEY, storedMessage } from './errors.js';
import { pendingEmail } from './pendingEmail.js';
import { validateLogin, type FieldErrors } from './validation.js';

/**
 * /login (public-area-and-api.md §2, §4, §5, §8). The error is kept in session storage (as a translation key,
 * so it follows a language switch) and shown again after a reload; editing a field or following a link clears it.
 * Success shows a message and goes to /dashboard after 1.5 s; the session starts then, because a signed-in
 * user on /login is sent on at once.
 */
export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<'email' | 'password'>>({});
  const [error, setError] = useState<string | null>(() => {
    const stored = storage.getLoginError();
    if (stored) return stored;
    // /login?error=CODE (the unknown-route rule of §2 forwards it): a known code's text, else the generic one.
    const code = searchParams.get('error');
    if (code === null) return null;
    return i18n.exists(`auth.errorCodes.${code}`) ? `auth.errorCodes.${code}` : 'auth.login.error';
  });
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState(false);

  const pending = useRef<LoginResponse | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      // Left during the success delay: the sign-in still counts.
      if (pending.current) signIn(pending.current);
    },
    [signIn],
  );

  // Following a link: the stored error must be gone before the router's rule (§2) looks for it.
  const forgetError = useCallback(() => {
    setError(null);
    storage.setLoginError(null);
  }, []);

  // Editing a field: also drop ?error= so a reload does not bring the message back.
  const clearError = useCallback(() => {
    forgetError();
    if (searchParams.has('error')) {
      const next = new URLSearchParams(searchParams);
      next.delete('error');
      setSearchParams(next, { replace: true });
    }
  }, [forgetError, searchParams, setSearchParams]);

  const fail = (key: string) => {
    setError(key);
    storage.setLoginError(key);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || success) return;
    const errors = validateLogin({ email, password });
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    forgetError();
    setBusy(true);
    const address = email.trim();
    try {
      const res = await api<LoginResponse>('/auth/login', { method: 'POST', body: { email: address, password }, noRefresh: true, token: null });
      // §4: login succeeds only with both tokens and a verified user.
      if (!res?.access_token || !res.refresh_token || !res.user) {
        fail('auth.login.error');
      } else if (!res.user.is_verified) {
        pendingEmail.set(address);
        fail(NOT_VERIFIED_KEY);
      } else {
        pendingEmail.set(null);
        setSuccess(true);
        pending.current = res;
        timer.current = setTimeout(() => {
          pending.current = null;
          signIn(res);
          void navigate('/dashboard', { replace: true });
        }, REDIRECT_AFTER_LOGIN_MS);
      }
    } catch (err) {
      const key = loginErrorKey(i18n, err);
      if (key === NOT_VERIFIED_KEY) pendingEmail.set(address);
      fail(key);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title={t('auth.login.title')}
      subtitle={t('auth.login.subtitle')}
      onLinkClick={forgetError}
      footer={
        <p>
          {t('auth.login.noAccount')}{' '}
          <Link to="/register" className={textLinkClass}>
            {t('auth.login.registerLink')}
          </Link>
        </p>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('auth.login.title')}>
        {success && <Alert tone="success">{t('auth.login.success')}</Alert>}
        {error && !success && (
          <Alert tone="error">
            <p>{storedMessage(i18n, error)}</p>
            {error === NOT_VERIFIED_KEY && (
              <p className="mt-1.5">
                <Link to="/resend-verification">{t('auth.login.resendLink')}</Link>
              </p>
            )}
          </Alert>
        )}
        <EmailField
          id="login-email"
          autoComplete="username"
          value={email}
          error={fieldErrors.email ? t(fieldErrors.email) : null}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldErrors((f) => ({ ...f, email: undefined }));
            if (error) clearError();
          }}
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            id="login-password"
            label={t('auth.password')}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            error={fieldErrors.password ? t(fieldErrors.password) : null}
            onChange={(e) => {
              setPassword(e.target.value);
              setFieldErrors((f) => ({ ...f, password: undefined }));
              if (error) clearError();
            }}
          />
          <Link to="/forgot-password" className={`self-end text-sm ${textLinkClass}`}>
            {t('auth.login.forgotPassword')}
          </Link>
        </div>
        <SubmitButton busy={busy || success} busyLabel="…" busyAriaLabel={t('auth.login.submitting')}>
          {t('auth.login.submit')}
        </SubmitButton>
      </form>
    </AuthLayout>
  );
}
