import { ArrowLeft, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PublicLayout } from '../../components/layouts/PublicLayout.js';
import { useDocumentTitle } from '../../components/layouts/useDocumentTitle.js';
import { Alert } from '../../components/ui/Alert.js';
import { Button } from '../../components/ui/Button.js';
import { Skeleton } from '../../components/ui/Skeleton.js';
import { LEGAL_UPDATED, useLegalOperator, type Operator } from './operator.js';

/**
 * The frame of the legal pages (public-area-and-api.md §2: static, in German, with a back-to-start link).
 * The text is German whatever the interface language, so the article carries lang="de"; an English interface
 * gets a one-line note saying so. The operator comes from the configuration (docs/decisions.md "Legal pages from
 * configuration"): the text is shown with the configured operator, or with the example operator and a visible note,
 * or not at all, with a notice that the operator has not published these details yet. Typography: a ~70-character measure and generous leading (docs/decisions.md "Look and feel (web)").
 */
const prose = [
  'text-[1.0625rem] leading-[1.75] text-text',
  '[&_h2]:mt-12 [&_h2]:scroll-mt-24 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-text',
  '[&_h3]:mt-8 [&_h3]:font-semibold',
  '[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_li]:pl-1 [&_li::marker]:text-muted [&_strong]:font-semibold',
  '[&_a]:text-accent [&_a]:underline [&_a]:underline-offset-2',
  '[&_code]:rounded [&_code]:bg-surface-2 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:text-[0.9em]',
  '[&_address]:mt-4 [&_address]:not-italic',
].join(' ');

export function LegalLayout({ title, children }: { title: string; children(operator: Operator): ReactNode }) {
  const { t, i18n } = useTranslation();
  const legal = useLegalOperator();

  useDocumentTitle(title);

  const back = (
    <Link to="/" className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-muted underline-offset-4 hover:text-text hover:underline">
      <ArrowLeft aria-hidden className="size-4" />
      {t('common.backToStart')}
    </Link>
  );

  return (
    <PublicLayout mainClassName="px-4 py-10 sm:px-6 sm:py-16">
      <div className="mx-auto max-w-[70ch]">
        {back}
        {legal.kind === 'ready' && legal.example && (
          <div className="mt-6 flex items-start gap-2.5 rounded-lg border border-warning/40 bg-warning-soft px-4 py-3 text-sm text-text" data-testid="legal-example-note">
            <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
            <p>
              <strong className="font-semibold">{t('legal.exampleTitle')}</strong> {t('legal.exampleText')}
            </p>
          </div>
        )}
        {legal.kind === 'ready' && i18n.language !== 'de' && (
          <p className="mt-6 rounded-lg border border-border bg-surface-2 px-4 py-3 text-sm text-muted">{t('legal.germanOnly')}</p>
        )}
        {legal.kind === 'ready' ? (
          <article lang="de" className={`mt-8 ${prose}`}>
            <header>
              <h1 className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">{title}</h1>
              <p className="mt-3! text-sm text-muted">Stand: {LEGAL_UPDATED}</p>
            </header>
            {children(legal.operator)}
          </article>
        ) : (
          <div className="mt-8">
            <h1 lang="de" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
              {title}
            </h1>
            <div className="mt-6">
              {legal.kind === 'loading' ? (
                <div role="status" aria-label={t('legal.loading')} className="flex flex-col gap-3">
                  <Skeleton className="h-4 w-3/5" />
                  <Skeleton className="h-4 w-4/5" />
                  <Skeleton className="h-4 w-2/5" />
                </div>
              ) : legal.kind === 'error' ? (
                <Alert tone="error">
                  <p>{t('legal.loadError')}</p>
                  <Button variant="secondary" size="sm" className="mt-2" onClick={legal.retry}>
                    {t('legal.retry')}
                  </Button>
                </Alert>
              ) : (
                <Alert tone="info">
                  <p className="font-medium">{t('legal.unavailableTitle')}</p>
                  <p className="mt-1 text-muted">{t('legal.unavailableText')}</p>
                </Alert>
              )}
            </div>
          </div>
        )}
        <div className="mt-14 border-t border-border pt-6">{back}</div>
      </div>
    </PublicLayout>
  );
}
