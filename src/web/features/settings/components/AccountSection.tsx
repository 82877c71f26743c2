import { UserRound } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SUCCESS_BANNER_MS } from '../../../../common/constants.js';
import { MAX_NAME_LENGTH } from '../../../../common/limits.js';
import { useAuth } from '../../../lib/auth.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { TextField } from '../../../components/ui/TextField.js';
import { storage } from '../../../lib/storage.js';
import { updateName } from '../api.js';
import { accountErrorText } from '../errors.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { validateName } from '../validation.js';
import { SettingsSection } from './SettingsSection.js';

/**
 * Settings section 1, Account (dashboard.md §2): the e-mail read-only (it cannot be changed, §6), the name
 * editable. The name must not be blank (§5); success shows "name updated" for 3 s (§9); a failure shows the
 * error text (§8); without a session the login-required message (public-area-and-api.md §8).
 */
export function AccountSection() {
  const { t, i18n } = useTranslation();
  const { user, updateSession } = useAuth();
  const [name, setName] = useState(user?.name ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [success, showSuccess] = useTimedMessage(SUCCESS_BANNER_MS);
  const nameRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    showSuccess(null);
    const invalid = validateName(name);
    if (invalid) {
      setFieldError(t(invalid));
      nameRef.current?.focus();
      return;
    }
    if (!user || !storage.getToken()) {
      setError(t('settings.account.loginRequired'));
      return;
    }
    setSaving(true);
    try {
      const res = await updateName(name.trim());
      updateSession({ user: res.user });
      setName(res.user.name);
      showSuccess(t('settings.account.nameUpdated'));
    } catch (err) {
      setError(accountErrorText(t, i18n, err, 'settings.account.errorUpdatingName'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <SettingsSection icon={UserRound} title={t('settings.account.title')} description={t('settings.account.description')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <TextField label={t('settings.account.email')} type="email" value={user?.email ?? ''} readOnly autoComplete="email" hint={t('settings.account.emailHint')} />
        <TextField
          ref={nameRef}
          label={t('settings.account.name')}
          value={name}
          maxLength={MAX_NAME_LENGTH}
          autoComplete="name"
          error={fieldError}
          onChange={(e) => {
            setName(e.target.value);
            setFieldError(null);
            setError(null);
          }}
        />
        {error && <Alert tone="error">{error}</Alert>}
        {success && <Alert tone="success">{success}</Alert>}
        <div className="flex justify-end">
          <Button type="submit" disabled={saving} className="w-full sm:w-auto">
            {saving ? t('settings.account.saving') : t('settings.account.save')}
          </Button>
        </div>
      </form>
    </SettingsSection>
  );
}
