/**
 * jsdom has <dialog> without showModal() and close(); the Modal falls back to the open attribute for showing,
 * and these stand-ins let it close too (a real browser has both).
 */
export function polyfillDialog(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & Record<string, unknown>;
  if (typeof proto.close !== 'function') {
    proto.close = function close(this: HTMLDialogElement) {
      this.removeAttribute('open');
    };
  }
}
