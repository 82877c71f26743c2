import { AlertTriangle, Download, FileUp, ListChecks, Rss, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { OpmlImportResult } from '../../../../common/api.js';
import { SUCCESS_BANNER_MS } from '../../../../common/constants.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button, ButtonLink } from '../../../components/ui/Button.js';
import { ApiError } from '../../../lib/api.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { downloadOpmlExport, useDeleteAllFeeds, useFeedSummaries, useImportOpml } from '../../feeds/index.js';
import { SettingsSection } from './SettingsSection.js';

/** dashboard.md §5: an OPML file is a .opml or .xml file. */
export const OPML_ACCEPT = '.opml,.xml';
const isOpmlName = (name: string) => /\.(opml|xml)$/i.test(name.trim());

type Status = { tone: 'success' | 'error'; text: string } | null;

/**
 * Settings section 3, Feed management (dashboard.md §2 "Account settings", §5, §7 "Feeds", §8 "Account", §9):
 * - OPML import: a chosen .opml/.xml file is required ("please choose an OPML file"); afterwards the counts of the
 *   result are shown; a failure shows the server's reason (translated by its code where known) or a generic text.
 *   The feed list, folders and counts refresh through the app-wide events (the feeds feature's useImportOpml).
 * - OPML export: downloads feeder-feeds-YYYY-MM-DD.opml; a failure shows a generic text.
 * - Delete all feeds: after the browser's confirm(); "all feeds deleted" or "error deleting all feeds".
 * First, a line on the feeds' health: how many feeds, how many failed at their last refresh, and the way to the
 * feed management screen, where each feed's health is shown (docs/decisions.md "Feed health in feed management").
 */
export function FeedManagementSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection icon={Rss} title={t('settings.feedManagement.title')} description={t('settings.feedManagement.description')}>
      <div className="flex flex-col divide-y divide-border">
        <HealthSummary />
        <ImportBlock />
        <ExportBlock />
        <DeleteAllBlock />
      </div>
    </SettingsSection>
  );
}

function Block({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 py-5 first:pt-0 last:pb-0">
      <div>
        <h3 id={headingId} className="text-sm font-semibold text-text">
          {title}
        </h3>
        <p className="mt-0.5 text-sm text-muted">{description}</p>
      </div>
      {children}
    </section>
  );
}

function HealthSummary() {
  const { t } = useTranslation();
  // The count and the broken ones only: the summaries the dashboard holds anyway.
  const feeds = useFeedSummaries();
  if (!feeds.data || feeds.data.length === 0) return null;
  const broken = feeds.data.filter((f) => f.last_error_code).length;
  return (
    <div className="flex flex-col gap-3 pb-5 sm:flex-row sm:items-center sm:justify-between">
      <p className="flex items-start gap-2 text-sm text-muted">
        {broken > 0 && <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />}
        <span>
          {t('settings.feedManagement.feedCount', { count: feeds.data.length })}
          {' · '}
          {broken > 0 ? t('settings.feedManagement.brokenCount', { count: broken }) : t('settings.feedManagement.noneBroken')}
        </span>
      </p>
      <ButtonLink to="/dashboard/feeds" variant="secondary" size="sm" className="w-full shrink-0 sm:w-auto">
        <ListChecks aria-hidden className="size-4" />
        {t('settings.feedManagement.manageFeeds')}
      </ButtonLink>
    </div>
  );
}

/** The import's failure in the user's language: the code's text, else the server's message (4xx), else generic. */
function importErrorText(t: ReturnType<typeof useTranslation>['t'], i18n: ReturnType<typeof useTranslation>['i18n'], err: unknown): string {
  if (err instanceof ApiError) {
    if (err.isNetwork) return t('settings.errors.network');
    if (err.code && i18n.exists(`opml.errorCodes.${err.code}`)) return t(`opml.errorCodes.${err.code}`);
    if (err.status < 500 && err.message && !/^HTTP \d+$/.test(err.message)) return err.message;
  }
  return t('opml.importError');
}

function ImportBlock() {
  const { t, i18n } = useTranslation();
  const importOpml = useImportOpml();
  const inputId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<OpmlImportResult | null>(null);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setResult(null);
    if (!file || !isOpmlName(file.name)) {
      setError(t('opml.chooseFile'));
      fileRef.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    try {
      setResult(await importOpml.mutateAsync(file));
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
    } catch (err) {
      setError(importErrorText(t, i18n, err));
    } finally {
      setBusy(false);
    }
  };

  const counts = result
    ? [
        t('opml.imported', { count: result.imported_count }),
        result.existed_count > 0 && t('opml.existed', { count: result.existed_count }),
        result.failed_count > 0 && t('opml.failed', { count: result.failed_count }),
        result.folders_created > 0 && t('opml.foldersCreated', { count: result.folders_created }),
      ].filter((line): line is string => typeof line === 'string')
    : [];

  return (
    <Block title={t('opml.importTitle')} description={t('opml.importDescription')}>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-text">
            {t('opml.fileLabel')}
          </label>
          {/* The browser's own file button speaks the browser's language, not the page's: the input is kept (it is
              what is focused and announced) but drawn as a button and a file name in the interface language. */}
          <div className="relative flex min-h-11 items-center gap-3 rounded-lg border border-border-strong bg-surface pr-3 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent/40">
            <input
              ref={fileRef}
              id={inputId}
              type="file"
              accept={OPML_ACCEPT}
              aria-invalid={error ? true : undefined}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setError(null);
                setResult(null);
              }}
              className="peer absolute inset-0 size-full cursor-pointer opacity-0"
            />
            <span
              aria-hidden
              className="inline-flex min-h-11 shrink-0 items-center gap-2 rounded-l-lg border-r border-border bg-surface-2 px-4 text-sm font-medium text-text peer-hover:bg-border"
            >
              <FileUp className="size-4" />
              {t('opml.chooseButton')}
            </span>
            <span aria-hidden className={`min-w-0 truncate text-sm ${file ? 'text-text' : 'text-muted'}`}>
              {file ? file.name : t('opml.noFile')}
            </span>
          </div>
        </div>
        {error && <Alert tone="error">{error}</Alert>}
        {result && (
          <Alert tone="success">
            <div>
              {t('opml.importDone')}
              <ul className="mt-1 list-disc pl-5">
                {counts.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {result.imported_count > 0 && <p className="mt-1 text-muted">{t('opml.importHint')}</p>}
            </div>
          </Alert>
        )}
        <div className="flex justify-end">
          <Button type="submit" variant="secondary" disabled={busy} className="w-full sm:w-auto">
            <Upload aria-hidden className={`size-4 ${busy ? 'animate-pulse' : ''}`} />
            {busy ? t('opml.importing') : t('opml.import')}
          </Button>
        </div>
      </form>
    </Block>
  );
}

function ExportBlock() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [done, showDone] = useTimedMessage(SUCCESS_BANNER_MS);

  const onExport = async () => {
    setStatus(null);
    showDone(null);
    setBusy(true);
    try {
      const filename = await downloadOpmlExport();
      showDone(t('opml.exportDone', { filename }));
    } catch {
      setStatus({ tone: 'error', text: t('opml.exportError') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Block title={t('opml.exportTitle')} description={t('opml.exportDescription')}>
      {status && <Alert tone={status.tone}>{status.text}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
      <div className="flex justify-end">
        <Button variant="secondary" onClick={() => void onExport()} disabled={busy} className="w-full sm:w-auto">
          <Download aria-hidden className="size-4" />
          {busy ? t('opml.exporting') : t('opml.export')}
        </Button>
      </div>
    </Block>
  );
}

function DeleteAllBlock() {
  const { t } = useTranslation();
  const deleteAllFeeds = useDeleteAllFeeds();
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  const onDelete = async () => {
    setStatus(null);
    // dashboard.md §5: deleting all feeds requires the browser's confirmation.
    if (!window.confirm(t('settings.feedManagement.deleteAllConfirm'))) return;
    setBusy(true);
    try {
      await deleteAllFeeds.mutateAsync();
      setStatus({ tone: 'success', text: t('settings.feedManagement.allDeleted') });
    } catch {
      setStatus({ tone: 'error', text: t('settings.feedManagement.deleteAllError') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Block title={t('settings.feedManagement.deleteAllTitle')} description={t('settings.feedManagement.deleteAllDescription')}>
      {status && <Alert tone={status.tone}>{status.text}</Alert>}
      <div className="flex justify-end">
        <Button variant="danger" onClick={() => void onDelete()} disabled={busy} className="w-full sm:w-auto">
          <Trash2 aria-hidden className="size-4" />
          {busy ? t('settings.feedManagement.deleting') : t('settings.feedManagement.deleteAll')}
        </Button>
      </div>
    </Block>
  );
}
