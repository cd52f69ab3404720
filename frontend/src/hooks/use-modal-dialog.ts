import { useEffect, useLayoutEffect, useRef, useSyncExternalStore, type RefObject } from 'react';

/** The modal dialogs open now, innermost last. */
let openDialogs: readonly HTMLDialogElement[] = [];
const listeners = new Set<() => void>();

function setOpenDialogs(next: readonly HTMLDialogElement[]) {
  openDialogs = next;
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The innermost open modal dialog, or null. While one is open the rest of the page is inert
 * (hidden from screen readers too), so whatever must stay usable, such as the toasts, renders
 * inside it.
 */
export function useTopModalDialog(): HTMLDialogElement | null {
  return useSyncExternalStore(
    subscribe,
    () => openDialogs[openDialogs.length - 1] ?? null,
    () => null,
  );
}

type ModalDialogOptions = {
  /** Escape (the browser's cancel) asks for this; the owner decides whether to unmount. */
  onClose: () => void;
  /** Receives focus on open; else the browser focuses the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Receives focus on close; defaults to whatever had focus before opening. */
  returnFocusRef?: RefObject<HTMLElement | null>;
};

/**
 * Shows the `<dialog>` in `dialogRef` as a modal for as long as the calling component is
 * mounted. The browser keeps focus inside and makes the page behind inert; Escape calls
 * `onClose` instead of closing behind React's back; focus goes back where it came from.
 */
export function useModalDialog(
  dialogRef: RefObject<HTMLDialogElement | null>,
  { onClose, initialFocusRef, returnFocusRef }: ModalDialogOptions,
): void {
  const latest = useRef({ onClose, returnFocusRef });
  useEffect(() => {
    latest.current = { onClose, returnFocusRef };
  });

  // A layout effect: it opens before the first paint and closes while the dialog is attached.
  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onCancel = (event: Event) => {
      event.preventDefault();
      latest.current.onClose();
    };
    // The browser may still close it on its own (a repeated Escape): follow it.
    const onNativeClose = () => latest.current.onClose();
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('close', onNativeClose);
    dialog.showModal();
    initialFocusRef?.current?.focus();
    setOpenDialogs([...openDialogs, dialog]);

    return () => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('close', onNativeClose);
      if (dialog.open) dialog.close();
      setOpenDialogs(openDialogs.filter((open) => open !== dialog));
      const target = latest.current.returnFocusRef?.current ?? previouslyFocused;
      if (target?.isConnected) target.focus();
    };
  }, [dialogRef, initialFocusRef]);
}
