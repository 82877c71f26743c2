import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, type AlertTone } from '../../../components/ui/Alert.js';
import { ButtonLink } from '../../../components/ui/Button.js';

/**
 * The end of a successful account flow (registration, verification, reset): the outcome, the visible countdown
 * of the timed redirect to /login (public-area-and-api.md §9) and a button to go there at once.
 */
export function RedirectNotice({ tone, message, secondsLeft }: { tone: AlertTone; message: ReactNode; secondsLeft: number }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-5">
      <Alert tone={tone}>{message}</Alert>
      <p className="text-sm text-muted" aria-live="polite">
        {t('auth.redirectingToLogin', { count: secondsLeft })}
      </p>
      <ButtonLink to="/login" replace className="min-h-11 w-full">
        {t('auth.goToLogin')}
      </ButtonLink>
    </div>
  );
}
