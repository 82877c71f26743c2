import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * What the top bar's tools and the article list share while the dashboard is open:
 * - show_read (dashboard.md §2: the top bar's read/unread toggle and the list's "showing …" note switch the same
 *   state). It lives for the session in memory, not in storage: the spec's list of stored keys is closed, and a
 *   reader who switched to "all" for one look expects unread-only again next time.
 * - the search box's focus, so the "/" shortcut of the list can reach the box in the top bar.
 */
export interface ReadingState {
  showRead: boolean;
  setShowRead(value: boolean): void;
  toggleShowRead(): void;
  /** The search box registers its focus function here; the list's "/" shortcut calls focusSearch(). */
  registerSearch(focus: (() => void) | null): void;
  focusSearch(): void;
}

const ReadingStateContext = createContext<ReadingState | null>(null);

/** `initialShowRead`: a reading list starts with read articles shown (kept articles, see ReadingListPage). */
export function ReadingStateProvider({ children, initialShowRead = false }: { children: ReactNode; initialShowRead?: boolean }) {
  const [showRead, setShowRead] = useState(initialShowRead);
  const searchFocus = useRef<(() => void) | null>(null);
  const toggleShowRead = useCallback(() => setShowRead((v) => !v), []);
  const registerSearch = useCallback((focus: (() => void) | null) => {
    searchFocus.current = focus;
  }, []);
  const focusSearch = useCallback(() => searchFocus.current?.(), []);
  const value = useMemo(() => ({ showRead, setShowRead, toggleShowRead, registerSearch, focusSearch }), [showRead, toggleShowRead, registerSearch, focusSearch]);
  return <ReadingStateContext.Provider value={value}>{children}</ReadingStateContext.Provider>;
}

const fallback: ReadingState = {
  showRead: false,
  setShowRead: () => {},
  toggleShowRead: () => {},
  registerSearch: () => {},
  focusSearch: () => {},
};

export function useReadingState(): ReadingState {
  return useContext(ReadingStateContext) ?? fallback;
}
