import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../../common/api.js';
import { Alert } from '../../../components/ui/Alert.js';
import { useAuth } from '../../../lib/auth.js';
import { MARK_READ_CHOICES, updateMarkReadOn, type MarkReadOn } from '../api.js';

/** The user as the reading setting sees it; `mark_read_on` is absent from answers of servers older than the setting. */
type ReadingUser = User & { mark_read_on?: MarkReadOn };

/** The account's choice; 'open' (the default) when the server does not say. */
const markReadOn = (user: ReadingUser | null): MarkReadOn => user?.mark_read_on ?? 'open';

/**
 * Appearance → Reading: when an article is marked read (on open, the default; when scrolled past; only by hand).
 * Stored on the account (PUT /auth/me), so every device reads the same way; the article list applies it. The
 * choice shows at once and goes back, with a message, when the server refuses it.
 */
export function ReadingSetting() {
  const { t } = useTranslation();
  const { user, updateSession } = useAuth();
  const id = useId();
  const saved = markReadOn(user);
  const [pending, setPending] = useState<MarkReadOn | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = pending ?? saved;

  const choose = async (next: MarkReadOn) => {
    if (next === current) return;
    setError(null);
    setPending(next);
    try {
      const res = await updateMarkReadOn(next);
      updateSession({ user: res.user });
    } catch (err) {
      console.error('Saving the reading setting failed', err);
      setError(t('settings.reading.saveError'));
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="flex flex-col gap-3 border-t border-border pt-5">
      <div>
        <p id={`${id}-label`} className="text-sm font-medium text-text">
          {t('settings.reading.title')}
        </p>
        <p id={`${id}-description`} className="mt-0.5 text-sm text-muted">
          {t('settings.reading.description')}
        </p>
      </div>
      <div role="radiogroup" aria-labelledby={`${id}-label`} aria-describedby={`${id}-description`} className="flex flex-col gap-2">
        {MARK_READ_CHOICES.map((choice) => (
          <label
            key={choice}
            className="flex cursor-pointer items-start gap-3 rounded-lg border border-border px-3.5 py-3 transition-colors hover:bg-surface-2/60 has-[input:checked]:border-accent has-[input:checked]:bg-accent-soft/40 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent/40"
          >
            <input
              type="radio"
              name={`${id}-mark-read-on`}
              value={choice}
              checked={current === choice}
              disabled={pending !== null}
              onChange={() => void choose(choice)}
              aria-labelledby={`${id}-${choice}-name`}
              aria-describedby={`${id}-${choice}-hint`}
              className="mt-1 size-4 shrink-0 accent-accent"
            />
            <span className="min-w-0">
              <span id={`${id}-${choice}-name`} className="block text-sm font-medium text-text">
                {t(`settings.reading.${choice}`)}
              </span>
              <span id={`${id}-${choice}-hint`} className="mt-0.5 block text-sm text-muted">
                {t(`settings.reading.${choice}Hint`)}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error && <Alert tone="error">{error}</Alert>}
    </div>
  );
}
