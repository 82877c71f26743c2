import { FolderPlus, Plus, Rss } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { menuItemClass, useMenuButton } from '../../../components/ui/useMenuButton.js';

/**
 * The "+" beside the sidebar's feeds heading (dashboard.md §2 "Sidebar": a "+" menu with add feed and add folder),
 * a menu button (components/ui/useMenuButton); choosing an entry closes the menu and opens its dialog.
 */
export function AddMenu({ onAddFeed, onAddFolder }: { onAddFeed(): void; onAddFolder(): void }) {
  const { t } = useTranslation();
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();
  const items = [
    { label: t('dashboard.sidebar.addFeed'), icon: Rss, onSelect: onAddFeed },
    { label: t('folders.addFolder'), icon: FolderPlus, onSelect: onAddFolder },
  ];
  return (
    <div ref={rootRef} className="relative -mr-2">
      <button
        {...buttonProps}
        aria-label={t('folders.addMenu')}
        title={t('folders.addMenu')}
        className={`inline-flex size-10 items-center justify-center rounded-lg transition-colors hover:bg-surface-2 hover:text-text lg:size-8 ${
          open ? 'bg-surface-2 text-text' : 'text-muted'
        }`}
      >
        <Plus aria-hidden className="size-4.5" />
      </button>
      {open && (
        <div
          {...menuProps}
          aria-label={t('folders.addMenu')}
          className="absolute right-0 top-full z-30 mt-1 w-56 rounded-xl border border-border bg-surface p-1.5 text-text shadow-card"
        >
          {items.map(({ label, icon: Icon, onSelect }) => (
            <button
              key={label}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`${menuItemClass} text-text`}
              onClick={() => {
                close(true);
                onSelect();
              }}
            >
              <Icon aria-hidden className="size-4 shrink-0 text-muted" />
              <span className="truncate">{label}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
