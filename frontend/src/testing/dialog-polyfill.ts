/*
 * jsdom has the <dialog> element but none of its modal behaviour. This gives tests what the
 * browser does: showModal() and close() with the `open` attribute and the close event, Escape
 * firing a cancelable cancel event on the innermost modal dialog (closing it unless cancelled),
 * focus moved inside on open, and Tab kept inside (the page behind a modal dialog is inert).
 */
const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

const modals: HTMLDialogElement[] = [];

function focusableIn(dialog: HTMLDialogElement): HTMLElement[] {
  return Array.from(dialog.querySelectorAll<HTMLElement>(FOCUSABLE));
}

function topModal(): HTMLDialogElement | undefined {
  for (let i = modals.length - 1; i >= 0; i -= 1) {
    const dialog = modals[i];
    if (dialog?.isConnected && dialog.hasAttribute('open')) return dialog;
    modals.splice(i, 1);
  }
  return undefined;
}

export function installDialogPolyfill(): void {
  const proto = HTMLDialogElement.prototype;
  if (typeof proto.showModal === 'function') return;

  Object.defineProperty(proto, 'open', {
    configurable: true,
    get(this: HTMLDialogElement) {
      return this.hasAttribute('open');
    },
    set(this: HTMLDialogElement, value: boolean) {
      this.toggleAttribute('open', value);
    },
  });
  proto.show = function show(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  proto.showModal = function showModal(this: HTMLDialogElement) {
    if (this.hasAttribute('open')) throw new DOMException('The dialog is already open.');
    this.setAttribute('open', '');
    modals.push(this);
    const autofocus = this.querySelector<HTMLElement>('[autofocus]');
    (autofocus ?? focusableIn(this)[0] ?? this).focus();
  };
  proto.close = function close(this: HTMLDialogElement, returnValue?: string) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    if (returnValue !== undefined) this.returnValue = returnValue;
    const index = modals.indexOf(this);
    if (index !== -1) modals.splice(index, 1);
    this.dispatchEvent(new Event('close'));
  };

  // After the page's own handlers, as the browser's default action.
  window.addEventListener('keydown', (event) => {
    if (event.defaultPrevented) return;
    const dialog = topModal();
    if (!dialog) return;
    if (event.key === 'Escape') {
      const cancel = new Event('cancel', { cancelable: true });
      if (dialog.dispatchEvent(cancel)) dialog.close();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = focusableIn(dialog);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const current = document.activeElement;
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (!dialog.contains(current)) {
      event.preventDefault();
      (event.shiftKey ? last : first).focus();
    } else if (event.shiftKey && current === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && current === last) {
      event.preventDefault();
      first.focus();
    }
  });
}
