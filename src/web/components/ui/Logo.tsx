/** Feeder's mark: a feed icon in the accent colour, and the word. */
export function Logo({ className = '', withText = true }: { className?: string; withText?: boolean }) {
  return (
    <span className={`inline-flex items-center gap-2 font-semibold tracking-tight text-text ${className}`}>
      <svg aria-hidden viewBox="0 0 32 32" className="size-7">
        <rect width="32" height="32" rx="8" fill="var(--accent)" />
        <circle cx="10" cy="22" r="2.6" fill="var(--accent-fg)" />
        <path d="M8 14.5a9.5 9.5 0 0 1 9.5 9.5" stroke="var(--accent-fg)" strokeWidth="2.8" fill="none" strokeLinecap="round" />
        <path d="M8 8a16 16 0 0 1 16 16" stroke="var(--accent-fg)" strokeWidth="2.8" fill="none" strokeLinecap="round" />
      </svg>
      {withText && <span className="text-lg">Feeder</span>}
    </span>
  );
}
