import { useEffect } from 'react';

/** Names the browser tab after the page ("Reset password · Feeder") while the page is shown. */
export function useDocumentTitle(title: unknown): void {
  useEffect(() => {
    if (typeof title !== 'string' || !title) return;
    const previous = document.title;
    document.title = `${title} · Feeder`;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
