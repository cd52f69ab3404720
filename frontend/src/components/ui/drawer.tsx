import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

import { useFocusTrap } from '@/hooks/use-focus-trap';
import { useScrollLock } from '@/hooks/use-scroll-lock';

import { IconButton } from './icon-button';
import { CloseIcon } from './icons';
import './drawer.css';

type DrawerProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Sticks to the bottom of the panel, e.g. totals and actions. */
  footer?: ReactNode;
  /** Where focus goes when the drawer closes, e.g. the button that opens it. */
  returnFocusRef?: RefObject<HTMLElement | null>;
};

/** A panel sliding in from the right; full width on phones. A modal dialog while open. */
export function Drawer({ open, onClose, title, children, footer, returnFocusRef }: DrawerProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  useFocusTrap(panelRef, open, { returnFocusRef, onEscape: onClose });
  useScrollLock(open);

  if (!open) return null;

  return createPortal(
    <div
      className="drawer-backdrop"
      data-testid="drawer-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panelRef}
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
      >
        <div className="drawer__header">
          <h2 id={titleId} className="drawer__title">
            {title}
          </h2>
          <IconButton label="Close cart" size="lg" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </div>
        <div className="drawer__body">{children}</div>
        {footer ? <div className="drawer__footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
