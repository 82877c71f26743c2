import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** A quiet, centred message where a list would be (dashboard.md §2 "Empty states"). */
export function EmptyState({ icon: Icon, title, text, children }: { icon: LucideIcon; title: string; text?: ReactNode; children?: ReactNode }) {
  return (
    <section aria-label={title} className="mx-auto flex max-w-md flex-col items-center px-4 py-14 text-center sm:py-20" data-testid="empty-state">
      <div aria-hidden className="mb-5 flex size-14 items-center justify-center rounded-2xl bg-accent-soft text-accent">
        <Icon className="size-7" strokeWidth={2} />
      </div>
      <h2 className="text-xl font-semibold tracking-tight text-balance">{title}</h2>
      {text && <p className="mt-2 leading-relaxed text-muted text-pretty">{text}</p>}
      {children && <div className="mt-6 flex flex-wrap items-center justify-center gap-3">{children}</div>}
    </section>
  );
}
