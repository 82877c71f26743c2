import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './components/AuthLayout.js';
import { BackToLogin } from './components/BackToLogin.js';
import { EmailRequestForm } from './components/EmailRequestForm.js';
import { forgotErrorKey, statusResultKey } from './errors.js';

/**
 * /forgot-password (public-area-and-api.md §2, §5, §8; decisions.md): the server answers the same whether or not
 * the address has an account, so the success text promises a mail only "if an account exists".
 */
export default function ForgotPasswordPage() {
  const { t, i18n } = useTranslation();
  // Once sent, the form gives way to a button back to the sign-in: the footer's link would say it twice.
  const [sent, setSent] = useState(false);
  return (
    <AuthLayout title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')} footer={sent ? undefined : <BackToLogin />}>
      <EmailRequestForm
        id="forgot-email"
        endpoint="/auth/forgot-password"
        submitLabel={t('auth.forgot.submit')}
        busyLabel={t('auth.forgot.sending')}
        interpret={(body) => statusResultKey(i18n, body, 'auth.forgot.success')}
        errorKey={(err) => forgotErrorKey(i18n, err)}
        onSuccess={() => setSent(true)}
      />
    </AuthLayout>
  );
}
