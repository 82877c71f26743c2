import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../../components/layouts/PublicLayout.js';
import { useDocumentTitle } from '../../../components/layouts/useDocumentTitle.js';
import { Card } from '../../../components/ui/Card.js';

export const textLinkClass = 'rounded font-medium text-accent underline-offset-4 hover:underline';

export interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** A decorative icon above the title (success and info states). */
  icon?: ReactNode;
  children: ReactNode;
  /** Links under the card (to /login, /register, …). */
  footer?: ReactNode;
  /** Called on any link click on the page (the login screen clears its error then, §2). */
  onLinkClick?: () => void;
}

/** The one frame of the six account screens: public header and footer, a centred card, links below it. */
export function AuthLayout({ title, subtitle, icon, children, footer, onLinkClick }: AuthLayoutProps) {
  const { t } = useTranslation();
  useDocumentTitle(title);
  return (
    <PublicLayout onLinkClick={onLinkClick} mainClassName="px-4 py-10 sm:py-16">
      <div className="mx-auto w-full max-w-md">
        <Card className="p-6 sm:p-8">
          {icon && (
            <div aria-hidden className="mb-5 inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent [&_svg]:size-6">
              {icon}
            </div>
          )}
          <h1 className="text-2xl font-semibold tracking-tight text-balance">{title}</h1>
          {subtitle && <p className="mt-2 text-[0.9375rem] text-muted">{subtitle}</p>}
          <div className="mt-6">{children}</div>
        </Card>
        {footer && <div className="mt-6 flex flex-col items-center gap-2 text-center text-sm text-muted">{footer}</div>}
        <div className="mt-6 text-center">
          <Link to="/" className="inline-flex items-center gap-1.5 rounded text-sm text-muted underline-offset-4 hover:text-text hover:underline">
            <ArrowLeft aria-hidden className="size-4" />
            {t('common.backToStart')}
          </Link>
        </div>
      </div>
    </PublicLayout>
  );
}
