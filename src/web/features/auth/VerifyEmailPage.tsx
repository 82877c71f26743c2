import type { i18n as I18n } from 'i18next';
import { CircleCheck, Mail, MailX } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { StatusResponse } from '../../../common/api.js';
import { REDIRECT_AFTER_VERIFY_MS } from '../../../common/constants.js';
import { Alert } from '../../components/ui/Alert.js';
import { ButtonLink } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { api } from '../../lib/api.js';
import { AuthLayout } from './components/AuthLayout.js';
import { BackToLogin } from './components/BackToLogin.js';
import { RedirectNotice } from './components/RedirectNotice.js';
import { statusResultKey, verifyErrorKey } from './errors.js';
import { useRedirectCountdown } from './useCountdown.js';

type Outcome = { ok: boolean; key: string };

/**
 * A verification token works once, so each token is sent to the server once per page load, however often the
 * screen mounts (React's StrictMode mounts twice in development).
 */
const verifications = new Map<string, Promise<Outcome>>();

function verifyOnce(token: string, i18n: I18n): Promise<Outcome> {
  let pending = verifications.get(token);
  if (!pending) {
    pending = api<StatusResponse>(`/auth/verify-email?token=${encodeURIComponent(token)}`, { noRefresh: true, token: null }).then(
      (body) => statusResultKey(i18n, body, 'auth.verify.success'),
      (err: unknown) => ({ ok: false, key: verifyErrorKey(i18n, err) }),
    );
    verifications.set(token, pending);
  }
  return pending;
}

/**
 * /verify-email (public-area-and-api.md §2, §8): with a token the server is asked; success confirms and goes to
 * /login after 5 s, failure explains and offers a new mail. Without a token: a mail is on its way.
 */
export default function VerifyEmailPage() {
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const secondsLeft = useRedirectCountdown(outcome?.ok === true, REDIRECT_AFTER_VERIFY_MS, '/login');

  useEffect(() => {
    if (!token) return;
    let live = true;
    void verifyOnce(token, i18n).then((result) => live && setOutcome(result));
    return () => {
      live = false;
    };
  }, [token, i18n]);

  if (!token) {
    return (
      <AuthLayout icon={<Mail />} title={t('auth.verify.sentTitle')} subtitle={t('auth.verify.sentText')} footer={<BackToLogin />}>
        <div className="flex flex-col gap-3">
          <p className="text-sm text-muted">{t('auth.verify.noMail')}</p>
          <ButtonLink to="/resend-verification" variant="secondary" className="min-h-11 w-full">
            {t('auth.verify.resend')}
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  if (!outcome) {
    return (
      <AuthLayout title={t('auth.verify.title')}>
        <div role="status" aria-live="polite" className="flex flex-col gap-3">
          <span className="sr-only">{t('auth.verify.verifying')}</span>
          <Skeleton className="h-4 w-11/12" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="mt-3 h-11 w-full rounded-lg" />
        </div>
      </AuthLayout>
    );
  }

  if (outcome.ok) {
    return (
      <AuthLayout icon={<CircleCheck />} title={t('auth.verify.successTitle')}>
        <RedirectNotice tone="success" message={t(outcome.key)} secondsLeft={secondsLeft} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout icon={<MailX />} title={t('auth.verify.errorTitle')} footer={<BackToLogin />}>
      <div className="flex flex-col gap-5">
        <Alert tone="error">{t(outcome.key)}</Alert>
        <ButtonLink to="/resend-verification" className="min-h-11 w-full">
          {t('auth.verify.resend')}
        </ButtonLink>
      </div>
    </AuthLayout>
  );
}
