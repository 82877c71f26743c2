import { MoreHorizontal, type LucideIcon } from 'lucide-react';
import { menuItemClass, useMenuButton } from '../../../components/ui/useMenuButton.js';

export interface MenuAction {
  label: string;
  icon: LucideIcon;
  onSelect(): void;
  danger?: boolean;
}

/**
 * A feed row's actions menu (dashboard.md §2: width 12rem), a menu button (components/ui/useMenuButton);
 * choosing an item closes the menu, returns focus to the button and then runs the action.
 */
export function FeedActionsMenu({ label, actions }: { label: string; actions: MenuAction[] }) {
  const { open, close, rootRef, buttonProps, menuProps } = useMenuButton();

  return (
    <div ref={rootRef} className="relative">
      <button
        {...buttonProps}
        aria-label={label}
        className={`inline-flex size-10 items-center justify-center rounded-lg transition-colors hover:bg-surface-2 hover:text-text ${
          open ? 'bg-surface-2 text-text' : 'text-muted'
        }`}
      >
        <MoreHorizontal aria-hidden className="size-5" />
      </button>
      {open && (
        <div
          {...menuProps}
          aria-label={label}
          className="absolute right-0 top-full z-30 mt-1 w-48 rounded-xl border border-border bg-surface p-1.5 text-text shadow-card"
        >
          {actions.map(({ label: itemLabel, icon: Icon, onSelect, danger }) => (
            <button
              key={itemLabel}
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={`${menuItemClass} ${danger ? 'text-danger' : 'text-text'}`}
              onClick={() => {
                close(true);
                onSelect();
              }}
            >
              <Icon aria-hidden className={`size-4 shrink-0 ${danger ? '' : 'text-muted'}`} />
              <span className="truncate">{itemLabel}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
