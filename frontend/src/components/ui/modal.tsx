import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

import { useFocusTrap } from '@/hooks/use-focus-trap';
import { useScrollLock } from '@/hooks/use-scroll-lock';

import { IconButton } from './icon-button';
import { CloseIcon } from './icons';
import './modal.css';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Action buttons, laid out at the bottom (stacked on phones). */
  footer?: ReactNode;
  /** Visual tone of the header icon area. */
  icon?: ReactNode;
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** For the role: "alertdialog" when the shopper must confirm something. */
  role?: 'dialog' | 'alertdialog';
};

/**
 * A centred dialog: role dialog with aria-modal, labelled by its title, focus trapped inside,
 * closed by Escape, the close button or a click on the backdrop.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  footer,
  icon,
  initialFocusRef,
  role = 'dialog',
}: ModalProps) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useFocusTrap(dialogRef, open, { initialFocusRef, onEscape: onClose });
  useScrollLock(open);

  if (!open) return null;

  return createPortal(
    <div
      className="modal-backdrop"
      data-testid="modal-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={dialogRef}
        className="modal"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        tabIndex={-1}
      >
        <IconButton className="modal__close" label="Close" onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <div className="modal__header">
          {icon ? <div className="modal__icon">{icon}</div> : null}
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
        </div>
        <div id={bodyId} className="modal__body">
          {children}
        </div>
        {footer ? <div className="modal__footer">{footer}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
