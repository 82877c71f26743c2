import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { StatusResponse } from '../../../common/api.js';
import { REDIRECT_AFTER_RESET_MS } from '../../../common/constants.js';
import { Alert } from '../../components/ui/Alert.js';
import { ButtonLink } from '../../components/ui/Button.js';
import { api } from '../../lib/api.js';
import { AuthLayout } from './components/AuthLayout.js';
import { BackToLogin } from './components/BackToLogin.js';
import { NewPasswordFields } from './components/NewPasswordFields.js';
import { RedirectNotice } from './components/RedirectNotice.js';
import { SubmitButton } from './components/SubmitButton.js';
import { resetErrorKey, statusResultKey } from './errors.js';
import { useRedirectCountdown } from './useCountdown.js';
import { validateReset, type FieldErrors } from './validation.js';

/** Codes after which the link itself is useless: offer a new one. */
const DEAD_LINK_KEYS = new Set(['auth.errorCodes.INVALID_TOKEN', 'auth.errorCodes.TOKEN_EXPIRED', 'auth.invalidToken']);

/**
 * /reset-password?token= (public-area-and-api.md §2, §4, §5, §8): idle → submitting → success (message and a
 * visible 5-second countdown, then /login) or error. Without a token the form is not shown at all.
 */
export default function ResetPasswordPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors<'password' | 'confirm'>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; key: string } | null>(token ? null : { ok: false, key: 'auth.invalidToken' });
  const secondsLeft = useRedirectCountdown(outcome?.ok === true, REDIRECT_AFTER_RESET_MS, '/login');

  const update = (field: 'password' | 'confirm') => (e: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((er) => ({ ...er, [field]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy || !token) return;
    const found = validateReset(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setOutcome(null);
    try {
      const body = await api<StatusResponse>('/auth/reset-password', {
        method: 'POST',
        body: { token, password: values.password },
        noRefresh: true,
        token: null,
      });
      setOutcome(statusResultKey(i18n, body, 'auth.reset.success'));
    } catch (err) {
      setOutcome({ ok: false, key: resetErrorKey(i18n, err) });
    } finally {
      setBusy(false);
    }
  };

  if (outcome?.ok) {
    return (
      <AuthLayout title={t('auth.reset.successTitle')}>
        <RedirectNotice tone="success" message={t(outcome.key)} secondsLeft={secondsLeft} />
      </AuthLayout>
    );
  }

  const deadLink = outcome !== null && DEAD_LINK_KEYS.has(outcome.key);
  const requestNew = (
    <ButtonLink to="/forgot-password" variant="secondary" className="min-h-11 w-full">
      {t('auth.reset.requestNew')}
    </ButtonLink>
  );

  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={token ? t('auth.reset.subtitle') : undefined} footer={<BackToLogin />}>
      {!token ? (
        <div className="flex flex-col gap-5">
          <Alert tone="error">{t('auth.invalidToken')}</Alert>
          {requestNew}
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('auth.reset.title')}>
          {outcome && (
            <Alert tone="error">
              <p>{t(outcome.key)}</p>
              {deadLink && (
                <p className="mt-1.5">
                  <Link to="/forgot-password">{t('auth.reset.requestNew')}</Link>
                </p>
              )}
            </Alert>
          )}
          <NewPasswordFields
            ids={{ password: 'reset-password', confirm: 'reset-confirm' }}
            passwordLabel={t('auth.reset.newPassword')}
            values={values}
            errors={errors}
            onChange={update}
          />
          <SubmitButton busy={busy} busyLabel={t('auth.reset.saving')}>
            {t('auth.reset.submit')}
          </SubmitButton>
        </form>
      )}
    </AuthLayout>
  );
}
