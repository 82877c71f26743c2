import { Check, Copy, Eye, EyeOff, RefreshCw, Smartphone } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../../lib/auth.js';
import { Alert } from '../../../components/ui/Alert.js';
import { Button } from '../../../components/ui/Button.js';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.js';
import { Switch } from '../../../components/ui/Switch.js';
import { TextField } from '../../../components/ui/TextField.js';
import { ApiError } from '../../../lib/api.js';
import { useTimedMessage } from '../../../lib/useTimedMessage.js';
import { fetchFeverPassword, regenerateFeverPassword, setFeverApiEnabled } from '../api.js';
import { SettingsSection } from './SettingsSection.js';

/** Copy status messages clear after 2 s (dashboard.md §4 "Fever API", §9). */
export const COPY_MESSAGE_MS = 2000;

/** Paths of the reader APIs; the settings show them after the site's origin (dashboard.md §9 "Fever URL"). */
export const FEVER_PATH = '/api/fever.php';
export const GREADER_PATH = '/api/greader.php';

type Status = { tone: 'success' | 'error'; text: string };
type CopyField = 'feverUrl' | 'greaderUrl' | 'username' | 'password';

/**
 * Writes text to the clipboard: the async Clipboard API where the page may use it, else the older
 * select-and-copy of a hidden text area (plain http on a home network has no navigator.clipboard).
 */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* denied: try the fallback */
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/**
 * Settings section 4, Fever API (dashboard.md §2, §4 "Fever API", §7, §8 "Fever"; decisions.md "External apps"):
 * the switch for the reader apps and, when on, the connection box: the API URLs (Fever and Google Reader), the
 * username (the e-mail) and the reader-apps password, masked until revealed, each with a copy button, and
 * regenerate. The password is fetched on first reveal or copy when the page does not hold it yet (enabling and
 * regenerating hand it over).
 */
export function FeverSection() {
  const { t } = useTranslation();
  const { user, updateSession } = useAuth();
  const enabled = user?.fever_api_enabled === true;
  const [password, setPassword] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState<'toggle' | 'reveal' | 'regenerate' | null>(null);
  const [status, setStatus] = useState<Status | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  /** What was copied last, for its confirmation and the check mark on its button. */
  const [copied, showCopied] = useTimedMessage<{ field: CopyField; text: string }>(COPY_MESSAGE_MS);
  const [copyError, showCopyError] = useTimedMessage(COPY_MESSAGE_MS);
  const fetching = useRef<Promise<string> | null>(null);

  const origin = window.location.origin;
  const feverUrl = `${origin}${FEVER_PATH}`;
  const greaderUrl = `${origin}${GREADER_PATH}`;

  /** §8 "Fever": the server's error field if present, else the default text with the error message appended. */
  const failureText = (err: unknown, defaultKey: string) => {
    if (err instanceof ApiError) {
      const body = err.body as { error?: unknown; message?: unknown } | undefined;
      if (typeof body?.error === 'string' && body.error) return body.error;
      if (typeof body?.message === 'string' && body.message) return body.message;
      return `${t(defaultKey)} ${err.isNetwork ? t('settings.errors.network') : err.message}`;
    }
    return `${t(defaultKey)} ${err instanceof Error ? err.message : String(err)}`;
  };

  const clearMessages = () => {
    setStatus(null);
    showCopied(null);
    showCopyError(null);
  };

  /** The password the page holds, or the server's (one request however often it is asked meanwhile). */
  const ensurePassword = async (): Promise<string> => {
    if (password !== null) return password;
    fetching.current ??= fetchFeverPassword()
      .then((res) => {
        setPassword(res.password);
        return res.password;
      })
      .finally(() => {
        fetching.current = null;
      });
    return fetching.current;
  };

  const onToggle = async (next: boolean) => {
    if (!user) return;
    clearMessages();
    setBusy('toggle');
    try {
      const res = await setFeverApiEnabled(next);
      if (res.password) setPassword(res.password);
      if (!res.enabled) setRevealed(false);
      updateSession({ user: { ...user, fever_api_enabled: res.enabled } });
    } catch (err) {
      setStatus({ tone: 'error', text: failureText(err, 'settings.fever.toggleError') });
    } finally {
      setBusy(null);
    }
  };

  const onReveal = async () => {
    if (revealed) {
      setRevealed(false);
      return;
    }
    setBusy('reveal');
    try {
      await ensurePassword();
      setRevealed(true);
    } catch {
      setStatus({ tone: 'error', text: t('settings.apiPasswordGenerateError') });
    } finally {
      setBusy(null);
    }
  };

  const onCopy = async (field: CopyField) => {
    clearMessages();
    let text: string;
    if (field === 'password') {
      try {
        text = await ensurePassword();
      } catch {
        setStatus({ tone: 'error', text: t('settings.apiPasswordGenerateError') });
        return;
      }
    } else text = field === 'feverUrl' ? feverUrl : field === 'greaderUrl' ? greaderUrl : (user?.email ?? '');
    if (await copyText(text)) {
      showCopied({ field, text: field === 'password' ? t('settings.apiPasswordCopied') : t(`settings.fever.copied.${field}`) });
    } else {
      showCopyError(t('settings.fever.copyFailed'));
    }
  };

  /**
   * A new password locks every connected app out until it is entered there, so the button asks first; the dialog
   * does the work and shows a failure inside itself (dashboard.md §8).
   */
  const onRegenerate = async () => {
    setBusy('regenerate');
    try {
      const res = await regenerateFeverPassword();
      setPassword(res.password);
      setStatus({ tone: 'success', text: t('settings.fever.regenerated') });
    } finally {
      setBusy(null);
    }
  };

  const copyButton = (field: CopyField, label: string) => {
    const done = copied?.field === field;
    return (
      <IconButton label={label} onClick={() => void onCopy(field)}>
        {done ? <Check aria-hidden className="size-4 text-success" /> : <Copy aria-hidden className="size-4" />}
      </IconButton>
    );
  };

  return (
    <SettingsSection icon={Smartphone} title={t('settings.fever.title')} description={t('settings.fever.description')}>
      <div className="flex flex-col gap-5">
        <Switch
          checked={enabled}
          disabled={busy === 'toggle' || !user}
          onChange={(next) => void onToggle(next)}
          label={t('settings.fever.enable')}
          description={t('settings.fever.enableDescription')}
        />

        {enabled && (
          <div className="flex flex-col gap-4 rounded-xl border border-border bg-surface-2/60 p-4 sm:p-5">
            <h3 className="text-sm font-semibold text-text">{t('settings.fever.connection')}</h3>
            {(
              [
                ['feverUrl', t('settings.fever.feverUrl'), feverUrl, t('settings.fever.copyFeverUrl')],
                ['greaderUrl', t('settings.fever.greaderUrl'), greaderUrl, t('settings.fever.copyGreaderUrl')],
                ['username', t('settings.fever.username'), user?.email ?? '', t('settings.fever.copyUsername')],
              ] as const
            ).map(([field, label, value, copyLabel]) => (
              // Read-only, selected whole on focus, with a copy button inside.
              <TextField
                key={field}
                label={label}
                value={value}
                readOnly
                spellCheck={false}
                onFocus={(e) => e.currentTarget.select()}
                trailing={copyButton(field, copyLabel)}
              />
            ))}
            <div className="flex flex-col gap-2">
              <TextField
                label={t('settings.fever.password')}
                type={revealed && password !== null ? 'text' : 'password'}
                value={password ?? '••••••••••••••••••••'}
                readOnly
                spellCheck={false}
                autoComplete="off"
                // A monospace face tells look-alike characters apart.
                style={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
                hint={t('settings.fever.passwordHint')}
                trailing={
                  <IconButton
                    label={revealed ? t('settings.fever.hidePassword') : t('settings.fever.showPassword')}
                    disabled={busy === 'reveal'}
                    onClick={() => void onReveal()}
                  >
                    {revealed ? <EyeOff aria-hidden className="size-4" /> : <Eye aria-hidden className="size-4" />}
                  </IconButton>
                }
              />
              {/* Labelled buttons under the field: the password stays readable on a phone (no second icon inside). */}
              <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
                <Button variant="secondary" onClick={() => void onCopy('password')} className="w-full sm:w-auto">
                  {copied?.field === 'password' ? <Check aria-hidden className="size-4 text-success" /> : <Copy aria-hidden className="size-4" />}
                  {t('settings.fever.copyPassword')}
                </Button>
                <Button
                  variant="secondary"
                  disabled={busy === 'regenerate'}
                  onClick={() => {
                    clearMessages();
                    setConfirmOpen(true);
                  }}
                  className="w-full sm:w-auto"
                >
                  <RefreshCw aria-hidden className={`size-4 ${busy === 'regenerate' ? 'animate-spin' : ''}`} />
                  {t('settings.fever.regenerate')}
                </Button>
              </div>
            </div>
            <p className="text-sm text-muted">{t('settings.fever.apps')}</p>
          </div>
        )}

        <div aria-live="polite" className="empty:hidden">
          {status && <Alert tone={status.tone}>{status.text}</Alert>}
          {!status && copied && <Alert tone="success">{copied.text}</Alert>}
          {!status && copyError && <Alert tone="error">{copyError}</Alert>}
        </div>
      </div>
      <ConfirmDialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        title={t('settings.fever.regenerateConfirmTitle')}
        cancelLabel={t('settings.fever.regenerateCancel')}
        confirmLabel={t('settings.fever.regenerate')}
        pendingLabel={t('settings.fever.regenerating')}
        confirmIcon={RefreshCw}
        onConfirm={onRegenerate}
        errorMessage={(err) => failureText(err, 'settings.fever.regenerateError')}
      >
        <p className="text-sm leading-relaxed text-muted">{t('settings.fever.regenerateConfirmText')}</p>
      </ConfirmDialog>
    </SettingsSection>
  );
}

/** A square icon button inside a field's right edge, 40 px for touch (docs/decisions.md "Look and feel (web)"), named for screen readers. */
function IconButton({ label, onClick, children, disabled }: { label: string; onClick(): void; children: ReactNode; disabled?: boolean }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="flex size-10 items-center justify-center rounded-md text-muted transition-colors hover:bg-surface-2 hover:text-text focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-accent disabled:opacity-60"
    >
      {children}
    </button>
  );
}
