import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.closest('[inert]') && element.getAttribute('aria-hidden') !== 'true',
  );
}

/** Open traps, innermost last: only the top one answers keys (a modal over the cart drawer). */
const trapStack: HTMLElement[] = [];

type FocusTrapOptions = {
  /** Receives focus on open; defaults to the first focusable element, then the container. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Receives focus on close; defaults to whatever had focus before opening. */
  returnFocusRef?: RefObject<HTMLElement | null>;
  onEscape?: () => void;
};

/**
 * While `active`, keeps Tab and Shift+Tab inside `containerRef`, calls `onEscape` on Escape,
 * and gives focus back when it ends.
 *
 * Only the staff's Live Chats panel still uses it; the modal, the drawer and the confirmations
 * are native modal `<dialog>`s (see use-modal-dialog). Delete this once the panel is one too.
 */
export function useFocusTrap(
  containerRef: RefObject<HTMLElement | null>,
  active: boolean,
  { initialFocusRef, returnFocusRef, onEscape }: FocusTrapOptions = {},
): void {
  const latest = useRef({ initialFocusRef, returnFocusRef, onEscape });
  useEffect(() => {
    latest.current = { initialFocusRef, returnFocusRef, onEscape };
  });

  useEffect(() => {
    if (!active) return;
    const container = containerRef.current;
    if (!container) return;

    const previouslyFocused =
      document.activeElement instanceof HTMLElement ? document.activeElement : null;
    trapStack.push(container);
    const first = latest.current.initialFocusRef?.current ?? focusableIn(container)[0] ?? container;
    first.focus();

    const onKeyDown = (event: KeyboardEvent) => {
      if (trapStack[trapStack.length - 1] !== container) return;
      // A modal <dialog> opened over the trap (a confirmation) handles its own keys.
      const dialog = event.target instanceof Element ? event.target.closest('dialog') : null;
      if (dialog && !dialog.contains(container)) return;
      if (event.key === 'Escape') {
        const escape = latest.current.onEscape;
        if (escape) {
          event.preventDefault();
          escape();
        }
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = focusableIn(container);
      const firstElement = focusable[0];
      const lastElement = focusable[focusable.length - 1];
      if (!firstElement || !lastElement) {
        event.preventDefault();
        container.focus();
        return;
      }
      const current = document.activeElement;
      const outside = !container.contains(current);
      if (event.shiftKey && (current === firstElement || outside)) {
        event.preventDefault();
        lastElement.focus();
      } else if (!event.shiftKey && (current === lastElement || outside)) {
        event.preventDefault();
        firstElement.focus();
      }
    };

    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      const index = trapStack.lastIndexOf(container);
      if (index !== -1) trapStack.splice(index, 1);
      const target = latest.current.returnFocusRef?.current ?? previouslyFocused;
      if (target?.isConnected) target.focus();
    };
  }, [active, containerRef]);
}
