import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { textLinkClass } from './AuthLayout.js';

export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Link to="/login" className={textLinkClass}>
      {t('auth.backToLogin')}
    </Link>
  );
}
