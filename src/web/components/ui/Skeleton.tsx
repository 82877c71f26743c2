/** Loading placeholder where content will appear (docs/decisions.md "Look and feel (web)": skeletons, not spinners). */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded-md bg-surface-2 ${className}`} />;
}

/**
 * The placeholder of one article card in the list (dashboard.md §4 "Infinite scroll"): source line, title and three
 * lines of teaser, in the card's padding. The article list and the dashboard's start skeleton both show it.
 */
export function ArticleCardSkeleton({ testId }: { testId?: string }) {
  return (
    <div aria-hidden className="px-4 py-4 sm:px-6 sm:py-5" data-testid={testId}>
      <div className="flex items-center gap-2">
        <Skeleton className="size-4 rounded" />
        <Skeleton className="h-3 w-32" />
      </div>
      <Skeleton className="mt-3 h-5 w-4/5" />
      <Skeleton className="mt-3 h-3.5 w-full" />
      <Skeleton className="mt-2 h-3.5 w-11/12" />
      <Skeleton className="mt-2 h-3.5 w-2/3" />
    </div>
  );
}
