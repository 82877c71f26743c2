import { MailCheck } from 'lucide-react';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RegisterResponse } from '../../../common/api.js';
import { REDIRECT_AFTER_REGISTER_MS } from '../../../common/constants.js';
import { Alert } from '../../components/ui/Alert.js';
import { TextField } from '../../components/ui/TextField.js';
import { api, ApiError } from '../../lib/api.js';
import { AuthLayout, textLinkClass } from './components/AuthLayout.js';
import { EmailField } from './components/EmailField.js';
import { NewPasswordFields } from './components/NewPasswordFields.js';
import { RedirectNotice } from './components/RedirectNotice.js';
import { SubmitButton } from './components/SubmitButton.js';
import { registerError } from './errors.js';
import { pendingEmail } from './pendingEmail.js';
import { useRedirectCountdown } from './useCountdown.js';
import { allowedDomains, usePublicConfig } from './usePublicConfig.js';
import { validateRegister, type FieldErrors, type RegisterField } from './validation.js';

type Values = Record<RegisterField, string>;

/**
 * /register (public-area-and-api.md §2, §5, §8): name, e-mail, password, confirmation. The e-mail domain is checked
 * against GET /api/config before sending; success hides the form, shows a message and goes to /login after 5 s.
 */
export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const { config, ensure } = usePublicConfig();
  const [values, setValues] = useState<Values>({ name: '', email: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [closed, setClosed] = useState<string[] | null>(null);
  const [formError, setFormError] = useState<{ key: string } | { text: string } | null>(null);
  const [result, setResult] = useState<Pick<RegisterResponse, 'email_sent'> | null>(null);
  const [busy, setBusy] = useState(false);
  const secondsLeft = useRedirectCountdown(result !== null, REDIRECT_AFTER_REGISTER_MS, '/login');

  const domains = allowedDomains(config);

  const update = (field: RegisterField) => (e: ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setErrors((er) => ({ ...er, [field]: undefined }));
    if (field === 'email') setClosed(null);
    setFormError(null);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const cfg = config ?? (await ensure());
    const allowed = allowedDomains(cfg);
    const { errors: found, domainClosed } = validateRegister(values, allowed);
    setErrors(found);
    setClosed(domainClosed ? allowed : null);
    setFormError(null);
    if (Object.keys(found).length > 0 || domainClosed) return;
    setBusy(true);
    const email = values.email.trim();
    try {
      const res = await api<RegisterResponse>('/auth/register', {
        method: 'POST',
        body: { name: values.name.trim(), email, password: values.password, language: i18n.language === 'de' ? 'de' : 'en' },
        noRefresh: true,
        token: null,
      });
      pendingEmail.set(email);
      setResult({ email_sent: res?.email_sent !== false });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'REGISTRATION_DOMAIN_NOT_ALLOWED') setClosed(allowed);
      else setFormError(registerError(i18n, err));
    } finally {
      setBusy(false);
    }
  };

  if (result) {
    return (
      <AuthLayout icon={<MailCheck />} title={t('auth.register.successTitle')}>
        <RedirectNotice
          tone={!result.email_sent ? 'warning' : 'success'}
          message={!result.email_sent ? t('auth.register.successNoMail') : t('auth.register.success', { email: values.email.trim() })}
          secondsLeft={secondsLeft}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={t('auth.register.title')}
      subtitle={t('auth.register.subtitle')}
      footer={
        <p>
          {t('auth.register.haveAccount')}{' '}
          <Link to="/login" className={textLinkClass}>
            {t('auth.register.loginLink')}
          </Link>
        </p>
      }
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5" aria-label={t('auth.register.title')}>
        {closed && (
          <Alert tone="warning">
            <p>{t('auth.register.closed')}</p>
            {closed.length > 0 && <p className="mt-1 text-muted">{t('auth.register.allowedDomains', { domains: closed.join(', ') })}</p>}
          </Alert>
        )}
        {formError && <Alert tone="error">{'key' in formError ? t(formError.key) : formError.text}</Alert>}
        <TextField
          id="register-name"
          label={t('auth.name')}
          name="name"
          autoComplete="name"
          required
          value={values.name}
          error={errors.name ? t(errors.name) : null}
          onChange={update('name')}
        />
        <EmailField
          id="register-email"
          value={values.email}
          error={errors.email ? t(errors.email) : null}
          hint={domains.length > 0 ? t('auth.register.domainHint', { domains: domains.join(', ') }) : undefined}
          onChange={update('email')}
        />
        <NewPasswordFields
          ids={{ password: 'register-password', confirm: 'register-confirm' }}
          passwordLabel={t('auth.password')}
          values={values}
          errors={errors}
          onChange={update}
        />
        <SubmitButton busy={busy} busyLabel={t('auth.register.submitting')}>
          {t('auth.register.submit')}
        </SubmitButton>
        <p className="text-center text-xs text-muted">
          {t('auth.register.legalPrefix')}{' '}
          <Link to="/terms" className="underline underline-offset-2 hover:text-text">
            {t('auth.register.termsLink')}
          </Link>{' '}
          {t('auth.register.legalAnd')}{' '}
          <Link to="/privacy" className="underline underline-offset-2 hover:text-text">
            {t('auth.register.privacyLink')}
          </Link>
          {t('auth.register.legalSuffix')}
        </p>
      </form>
    </AuthLayout>
  );
}
