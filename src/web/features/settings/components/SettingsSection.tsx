import type { LucideIcon } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Card } from '../../../components/ui/Card.js';

/** One card of the settings page: a heading with icon and description, then the section's content. */
export function SettingsSection({ title, description, icon: Icon, children }: { title: string; description?: string; icon: LucideIcon; children: ReactNode }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <header className="flex items-start gap-3 border-b border-border px-5 py-4 sm:px-6">
          <span aria-hidden className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-muted">
            <Icon className="size-4" />
          </span>
          <div className="min-w-0">
            <h2 id={headingId} className="text-base font-semibold tracking-tight text-text">
              {title}
            </h2>
            {description && <p className="mt-0.5 text-sm text-muted">{description}</p>}
          </div>
        </header>
        <div className="px-5 py-5 sm:px-6">{children}</div>
      </Card>
    </section>
  );
}
