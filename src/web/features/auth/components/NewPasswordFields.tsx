import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from '../../../../common/limits.js';
import type { FieldErrors } from '../validation.js';
import { PasswordField } from './PasswordField.js';

type NewPasswordField = 'password' | 'confirm';

/**
 * A new password (with the length hint) and its confirmation, as chosen at registration and on reset.
 * `errors` hold translation keys; `onChange(field)` gives each input its change handler.
 */
export function NewPasswordFields({
  ids,
  passwordLabel,
  values,
  errors,
  onChange,
}: {
  ids: Record<NewPasswordField, string>;
  passwordLabel: string;
  values: Record<NewPasswordField, string>;
  errors: FieldErrors<NewPasswordField>;
  onChange: (field: NewPasswordField) => (e: ChangeEvent<HTMLInputElement>) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        id={ids.password}
        label={passwordLabel}
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        error={errors.password ? t(errors.password) : null}
        hint={t('auth.passwordHint', { count: MIN_PASSWORD_LENGTH })}
        onChange={onChange('password')}
      />
      <PasswordField
        id={ids.confirm}
        label={t('auth.confirmPassword')}
        name="confirm"
        autoComplete="new-password"
        required
        value={values.confirm}
        error={errors.confirm ? t(errors.confirm) : null}
        onChange={onChange('confirm')}
      />
    </>
  );
}
