/** Loading placeholder where content will appear (docs/decisions.md "Look and feel (web)": skeletons, not spinners). */
export function Skeleton({ className = '' }: { className?: string }) {
  return <div aria-hidden className={`animate-pulse rounded-md bg-surface-2 ${className}`} />;
}
