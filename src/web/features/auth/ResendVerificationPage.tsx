import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthLayout } from './components/AuthLayout.js';
import { BackToLogin } from './components/BackToLogin.js';
import { EmailRequestForm } from './components/EmailRequestForm.js';
import { resendErrorKey } from './errors.js';
import { pendingEmail } from './pendingEmail.js';

/** Codes that mean "done" for a resend (public-area-and-api.md §8). */
const SUCCESS_CODES = new Set(['VERIFICATION_EMAIL_SENT', 'ACCOUNT_ALREADY_VERIFIED']);

/** /resend-verification: prefilled with the address remembered at login or registration. */
export default function ResendVerificationPage() {
  const { t, i18n } = useTranslation();
  // Once sent, the form gives way to a button back to the sign-in: the footer's link would say it twice.
  const [sent, setSent] = useState(false);
  return (
    <AuthLayout title={t('auth.resend.title')} subtitle={t('auth.resend.subtitle')} footer={sent ? undefined : <BackToLogin />}>
      <EmailRequestForm
        id="resend-email"
        endpoint="/auth/resend-verification"
        initialEmail={pendingEmail.get()}
        submitLabel={t('auth.resend.submit')}
        busyLabel={t('auth.resend.sending')}
        interpret={(body) =>
          body?.status === 'success' && body.code && SUCCESS_CODES.has(body.code) ? { ok: true, key: `auth.errorCodes.${body.code}` } : { ok: false, key: 'common.error' }
        }
        errorKey={(err) => resendErrorKey(i18n, err)}
        onSuccess={(email) => {
          pendingEmail.set(email);
          setSent(true);
        }}
      />
    </AuthLayout>
  );
}
