import { useTranslation } from 'react-i18next';
import { ArticleCardSkeleton, Skeleton } from '../ui/Skeleton.js';

/** Widths of the placeholder sidebar rows: varied, as feed names are. */
const ROWS = ['w-28', 'w-36', 'w-24', 'w-32', 'w-40', 'w-28', 'w-20', 'w-36', 'w-32', 'w-24'];

/**
 * The dashboard's shape while its code loads (public-area-and-api.md §4 "Session start"; docs/decisions.md "Look
 * and feel (web)": skeletons, not spinners, never a bare loading text): the sidebar with its rows, the top bar and
 * article cards, laid out as DashboardShell lays out the real ones, so nothing jumps when they arrive. The sidebar
 * column shows on wide screens only, where the real one is docked.
 */
export function DashboardSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="min-h-screen bg-bg lg:flex" aria-busy="true" aria-label={t('dashboard.loading')} role="status" data-testid="dashboard-skeleton">
      <div aria-hidden className="hidden border-r border-border bg-surface lg:block lg:h-screen lg:w-64 lg:shrink-0">
        <div className="flex h-14 items-center gap-2 pl-5 pr-3">
          <Skeleton className="size-7 rounded-lg" />
          <Skeleton className="h-4 w-20" />
        </div>
        <div className="flex flex-col gap-3 px-6 pt-4">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-24" />
          <Skeleton className="mt-6 h-3 w-20" />
          {ROWS.map((w, i) => (
            <div key={i} className="flex items-center gap-3">
              <Skeleton className="size-4 rounded" />
              <Skeleton className={`h-3.5 ${w}`} />
            </div>
          ))}
        </div>
      </div>
      <div aria-hidden className="flex min-h-screen min-w-0 flex-1 flex-col">
        <div className="flex h-14 shrink-0 items-center gap-3 border-b border-border px-3 sm:px-5">
          <Skeleton className="size-8 rounded-lg lg:hidden" />
          <Skeleton className="h-5 w-36" />
          <div className="ml-auto flex items-center gap-3">
            <Skeleton className="hidden h-9 w-64 rounded-lg sm:block" />
            <Skeleton className="size-9 rounded-full" />
          </div>
        </div>
        <div className="flex-1 px-4 py-6 sm:px-6 sm:py-8 lg:px-10">
          <div className="mx-auto max-w-3xl">
            <div className="mb-4 flex h-12 items-center">
              <Skeleton className="h-4 w-44" />
            </div>
            <div className="divide-y divide-border overflow-hidden rounded-2xl border border-border bg-surface">
              {[0, 1, 2, 3].map((i) => (
                <ArticleCardSkeleton key={i} />
              ))}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
