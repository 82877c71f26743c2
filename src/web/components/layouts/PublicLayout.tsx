import type { MouseEventHandler, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HEADER_SOLID_SCROLL_PX } from '../../../common/constants.js';
import { LanguageSwitch } from '../LanguageSwitch.js';
import { ThemeToggle } from '../ThemeToggle.js';
import { ButtonLink } from '../ui/Button.js';
import { Logo } from '../ui/Logo.js';
import { useAuth } from '../../lib/auth.js';
import { useScrolledPast } from './useScrolledPast.js';

export interface PublicLayoutProps {
  children: ReactNode;
  /**
   * Landing page: the header is transparent over the hero and turns solid (background, border, shadow)
   * once the page is scrolled more than HEADER_SOLID_SCROLL_PX (public-area-and-api.md §2, §9).
   * Everywhere else it is always solid.
   */
  transparentHeader?: boolean;
  /** Called for every link click inside the layout (the login screen clears its stored error, §2). */
  onLinkClick?: () => void;
  mainClassName?: string;
}

/** Header, main and footer of the public area: landing, sign-in screens and legal pages. */
export function PublicLayout({ children, transparentHeader = false, onLinkClick, mainClassName = '' }: PublicLayoutProps) {
  const { t } = useTranslation();
  const scrolled = useScrolledPast(HEADER_SOLID_SCROLL_PX);
  const solid = !transparentHeader || scrolled;

  const handleClick: MouseEventHandler<HTMLDivElement> | undefined = onLinkClick
    ? (e) => {
        if ((e.target as Element | null)?.closest?.('a[href]')) onLinkClick();
      }
    : undefined;

  return (
    // Capture phase: the handler runs before the link navigates.
    <div className="relative isolate flex min-h-screen flex-col" onClickCapture={handleClick}>
      {transparentHeader && (
        // A soft wash of the accent behind the transparent header and the hero.
        <div
          aria-hidden
          className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[42rem] bg-[radial-gradient(ellipse_75%_65%_at_50%_0%,var(--accent-soft),transparent)]"
        />
      )}
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-surface px-4 py-2 text-sm font-medium text-text shadow-card focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
      >
        {t('header.skipToContent')}
      </a>
      <SiteHeader solid={solid} />
      <main id="main" tabIndex={-1} className={`flex-1 focus:outline-none ${mainClassName}`}>
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}

function SiteHeader({ solid }: { solid: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <header
      data-solid={solid ? 'true' : 'false'}
      className={`sticky top-0 z-40 border-b transition-[background-color,border-color,box-shadow] duration-200 ${
        solid ? 'border-border bg-bg/90 shadow-sm backdrop-blur-md supports-[backdrop-filter]:bg-bg/80' : 'border-transparent bg-transparent'
      }`}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4 sm:px-6">
        <Link to="/" aria-label={t('header.home')} className="-ml-1 mr-auto rounded-lg px-1 py-1">
          {/* On a phone the mark alone, so sign-in and sign-up both fit beside the switches (390 px, German). */}
          <Logo className="max-sm:[&>span]:sr-only" />
        </Link>
        <nav aria-label={t('header.nav')} className="flex items-center gap-0.5 sm:gap-2">
          <LanguageSwitch />
          <ThemeToggle />
          {user ? (
            <ButtonLink to="/dashboard" size="sm" className="ml-1">
              {t('header.dashboard')}
            </ButtonLink>
          ) : (
            <>
              <ButtonLink to="/login" variant="ghost" size="sm" className="ml-1 max-sm:px-2.5">
                {t('header.login')}
              </ButtonLink>
              <ButtonLink to="/register" size="sm" className="max-sm:px-3">
                {t('header.register')}
              </ButtonLink>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}

function SiteFooter() {
  const { t } = useTranslation();
  const links = [
    { to: '/privacy', label: t('footer.privacy') },
    { to: '/imprint', label: t('footer.imprint') },
    { to: '/terms', label: t('footer.terms') },
    { to: '/api-docs', label: t('apiDocs.footerLink') },
  ];
  return (
    <footer className="border-t border-border bg-surface/40">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div className="max-w-xs">
          <Link to="/" aria-label={t('header.home')} className="inline-block rounded-lg">
            <Logo />
          </Link>
          <p className="mt-3 text-sm text-muted">{t('footer.tagline')}</p>
        </div>
        <nav aria-label={t('footer.legalNav')}>
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {links.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="rounded text-muted underline-offset-4 hover:text-text hover:underline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <p className="border-t border-border py-5 text-sm text-muted">{t('footer.copyright', { year: 2026 })}</p>
      </div>
    </footer>
  );
}
