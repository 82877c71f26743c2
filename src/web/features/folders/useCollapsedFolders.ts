import { useCallback, useState } from 'react';
import { storage } from '../../lib/storage.js';

/** Local storage key of the collapsed folders (ids), so the sidebar looks the same after a reload (§4 "Folders"). */
export const COLLAPSED_FOLDERS_KEY = 'collapsedFolders';

function read(): Set<number> {
  try {
    const parsed: unknown = JSON.parse(storage.get(COLLAPSED_FOLDERS_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isInteger(v)) : []);
  } catch {
    return new Set();
  }
}

/**
 * Which folders are collapsed, remembered per browser. Folders start expanded (a new folder shows what is dropped
 * into it); the stored list holds the collapsed ones, so a folder made elsewhere is expanded here too.
 */
export function useCollapsedFolders(): { collapsed: ReadonlySet<number>; toggle(id: number): void } {
  const [collapsed, setCollapsed] = useState<Set<number>>(read);
  const toggle = useCallback((id: number) => {
    setCollapsed((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      storage.set(COLLAPSED_FOLDERS_KEY, JSON.stringify([...next]));
      return next;
    });
  }, []);
  return { collapsed, toggle };
}
