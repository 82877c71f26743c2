import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { polyfillDialog } from '../../test/dialog.js';
import i18n from '../../i18n/index.js';
import { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog.js';

beforeEach(async () => {
  polyfillDialog();
  await i18n.changeLanguage('en');
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Dialog(props: Partial<ConfirmDialogProps>) {
  return (
    <ConfirmDialog
      open
      onClose={() => {}}
      title="Delete thing?"
      cancelLabel="Keep"
      confirmLabel="Delete thing"
      pendingLabel="Deleting…"
      onConfirm={async () => {}}
      errorMessage={() => 'It could not be deleted.'}
      {...props}
    >
      <p>Really delete the thing?</p>
    </ConfirmDialog>
  );
}

describe('ConfirmDialog', () => {
  it('shows the pending label with both buttons disabled while it runs, then closes', async () => {
    let finish!: () => void;
    const onClose = vi.fn();
    render(<Dialog onClose={onClose} onConfirm={() => new Promise<void>((resolve) => (finish = resolve))} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete thing?' });
    expect(within(dialog).getByText('Really delete the thing?')).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Keep' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    const pending = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Deleting…' });
    expect(pending.disabled).toBe(true);
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Keep' }).disabled).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => finish());
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('keeps a failure inside the dialog, lets the user try again, and forgets it once closed and reopened', async () => {
    const onConfirm = vi.fn<() => Promise<void>>().mockRejectedValueOnce(new Error('boom')).mockResolvedValue();
    const onClose = vi.fn();
    const errorMessage = vi.fn(() => 'It could not be deleted.');
    const { rerender } = render(<Dialog onConfirm={onConfirm} onClose={onClose} errorMessage={errorMessage} />);
    const dialog = screen.getByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete thing' }));
    expect(await within(dialog).findByText('It could not be deleted.')).toBeTruthy();
    expect(errorMessage).toHaveBeenCalledWith(new Error('boom'));
    expect(onClose).not.toHaveBeenCalled();
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Delete thing' }).disabled).toBe(false);

    rerender(<Dialog open={false} onConfirm={onConfirm} onClose={onClose} errorMessage={errorMessage} />);
    rerender(<Dialog onConfirm={onConfirm} onClose={onClose} errorMessage={errorMessage} />);
    expect(within(screen.getByRole('dialog')).queryByText('It could not be deleted.')).toBeNull();

    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete thing' }));
    await act(async () => {});
    expect(onConfirm).toHaveBeenCalledTimes(2);
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
