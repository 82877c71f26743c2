import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from '../../../components/ui/TextField.js';

type Props = Omit<TextFieldProps, 'label' | 'type' | 'name' | 'inputMode' | 'autoCapitalize' | 'spellCheck' | 'required'>;

/**
 * The required e-mail input of the account forms: the e-mail keyboard, no auto-capitalisation or spell check.
 * `autoComplete` defaults to "email" (the sign-in passes "username").
 */
export const EmailField = forwardRef<HTMLInputElement, Props>(function EmailField({ autoComplete = 'email', ...props }, ref) {
  const { t } = useTranslation();
  return (
    <TextField
      ref={ref}
      {...props}
      label={t('auth.email')}
      type="email"
      name="email"
      autoComplete={autoComplete}
      inputMode="email"
      autoCapitalize="none"
      spellCheck={false}
      required
    />
  );
});
