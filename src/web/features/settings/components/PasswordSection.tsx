import { KeyRound } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SUCCESS_BANNER_MS } from '../../../../common/constants.js';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../../common/limits.js';
import { useAuth } from '../../../lib/auth.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { storage } from '../../../lib/storage.js';
import { changePassword, verifyPassword } from '../api.js';
import { accountErrorText } from '../errors.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { validatePasswordChange, type PasswordChangeErrors, type PasswordChangeValues } from '../validation.js';
import { SettingsSection } from './SettingsSection.js';

const EMPTY: PasswordChangeValues = { current: '', next: '', confirm: '' };

/**
 * Settings section 2, Change password (dashboard.md §2, §4, §5, §8): the new password needs 8 characters
 * and must match its confirmation; the current password is verified first (POST /auth/verify-password),
 * then the change is made (PUT /auth/me). The change revokes every other session and hands this one a new
 * token pair, which is stored. Success: a 3-s banner and cleared fields.
 */
export function PasswordSection() {
  const { t, i18n } = useTranslation();
  const { user, updateSession } = useAuth();
  const [values, setValues] = useState<PasswordChangeValues>(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<PasswordChangeErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [success, showSuccess] = useTimedMessage(SUCCESS_BANNER_MS);
  const refs = {
    current: useRef<HTMLInputElement>(null),
    next: useRef<HTMLInputElement>(null),
    confirm: useRef<HTMLInputElement>(null),
  };

  const set = (field: keyof PasswordChangeValues) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    setFieldErrors((errs) => ({ ...errs, [field]: undefined }));
    setError(null);
  };

  const showFieldErrors = (errs: PasswordChangeErrors) => {
    setFieldErrors(errs);
    const first = (['current', 'next', 'confirm'] as const).find((f) => errs[f]);
    if (first) refs[first].current?.focus();
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    showSuccess(null);
    const invalid = validatePasswordChange(values);
    if (Object.keys(invalid).length) {
      showFieldErrors(invalid);
      return;
    }
    if (!storage.getToken()) {
      setError(t('settings.password.notAuthenticated'));
      return;
    }
    setBusy(true);
    try {
      const { valid } = await verifyPassword(values.current);
      if (!valid) {
        showFieldErrors({ current: 'settings.password.incorrectCurrent' });
        return;
      }
      const res = await changePassword(values.next, values.current);
      updateSession(res);
      setValues(EMPTY);
      setFieldErrors({});
      showSuccess(t('settings.password.updated'));
    } catch (err) {
      if (err instanceof ApiError && err.code === 'INVALID_CURRENT_PASSWORD') {
        showFieldErrors({ current: 'settings.password.incorrectCurrent' });
      } else if (err instanceof ApiError && err.code === 'PASSWORD_TOO_SHORT') {
        showFieldErrors({ next: 'settings.password.tooShort' });
      } else {
        setError(accountErrorText(t, i18n, err, 'settings.password.failed'));
      }
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (field: keyof PasswordChangeValues) => (fieldErrors[field] ? t(fieldErrors[field], { min: MIN_PASSWORD_LENGTH }) : null);

  return (
    <SettingsSection icon={KeyRound} title={t('settings.password.title')} description={t('settings.password.description')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        {/* Lets password managers tie the new password to the account. */}
        <input type="email" name="username" autoComplete="username" value={user?.email ?? ''} readOnly hidden />
        <TextField
          ref={refs.current}
          type="password"
          name="current-password"
          autoComplete="current-password"
          label={t('settings.password.current')}
          value={values.current}
          onChange={set('current')}
          error={fieldError('current')}
          maxLength={MAX_PASSWORD_LENGTH}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            ref={refs.next}
            type="password"
            name="new-password"
            autoComplete="new-password"
            label={t('settings.password.new')}
            hint={t('settings.password.newHint', { min: MIN_PASSWORD_LENGTH })}
            value={values.next}
            onChange={set('next')}
            error={fieldError('next')}
            maxLength={MAX_PASSWORD_LENGTH}
          />
          <TextField
            ref={refs.confirm}
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            label={t('settings.password.confirm')}
            value={values.confirm}
            onChange={set('confirm')}
            error={fieldError('confirm')}
            maxLength={MAX_PASSWORD_LENGTH}
          />
        </div>
        {error && <Alert tone="error">{error}</Alert>}
        {success && <Alert tone="success">{success}</Alert>}
        <div className="flex justify-end">
          <Button type="submit" disabled={busy} className="w-full sm:w-auto">
            {busy ? t('settings.password.submitting') : t('settings.password.submit')}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
