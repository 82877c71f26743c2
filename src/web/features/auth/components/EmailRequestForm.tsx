import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { StatusResponse } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { ButtonLink } from '../../../components/ui/Button.js';
import { api } from '../../../lib/api.js';
import { validateEmailOnly } from '../validation.js';
import { EmailField } from './EmailField.js';
import { SubmitButton } from './SubmitButton.js';

export interface EmailRequestFormProps {
  id: string;
  /** POST endpoint taking {email} and answering {status, code}. */
  endpoint: string;
  initialEmail?: string;
  submitLabel: string;
  busyLabel: string;
  /** Maps the 200 answer to {ok, key} (which codes count as success differs per screen, §8). */
  interpret(body: StatusResponse | undefined): { ok: boolean; key: string };
  /** Maps a failed request to a translation key. */
  errorKey(err: unknown): string;
  onSuccess?(email: string): void;
}

/**
 * The e-mail-only forms (forgot password, resend verification; public-area-and-api.md §5): the address is
 * required, a sending state while the request runs, then the answer's text; on success the form gives way to
 * the message and a way back to the sign-in.
 */
export function EmailRequestForm({ id, endpoint, initialEmail = '', submitLabel, busyLabel, interpret, errorKey, onSuccess }: EmailRequestFormProps) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; key: string } | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const { email: err } = validateEmailOnly({ email });
    setFieldError(err);
    if (err) return;
    setBusy(true);
    setResult(null);
    const address = email.trim();
    try {
      const body = await api<StatusResponse>(endpoint, { method: 'POST', body: { email: address }, noRefresh: true, token: null });
      const outcome = interpret(body);
      setResult(outcome);
      if (outcome.ok) onSuccess?.(address);
    } catch (caught) {
      setResult({ ok: false, key: errorKey(caught) });
    } finally {
      setBusy(false);
    }
  };

  if (result?.ok) {
    return (
      <div className="flex flex-col gap-5">
        <Alert tone="success">{t(result.key)}</Alert>
        <ButtonLink to="/login" variant="secondary" className="min-h-11 w-full">
          {t('auth.backToLogin')}
        </ButtonLink>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      {result && <Alert tone="error">{t(result.key)}</Alert>}
      <EmailField
        id={id}
        value={email}
        error={fieldError ? t(fieldError) : null}
        onChange={(e) => {
          setEmail(e.target.value);
          setFieldError(undefined);
          setResult(null);
        }}
      />
      <SubmitButton busy={busy} busyLabel={busyLabel}>
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
