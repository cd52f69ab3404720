import { useTranslation } from 'react-i18next';
import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

import { useModalDialog } from '@/hooks/use-modal-dialog';
import { useScrollLock } from '@/hooks/use-scroll-lock';

import { ToastSlot } from './toast';
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
 * A centred modal `<dialog>`, labelled by its title: the browser keeps focus inside and the page
 * behind inert; Escape, the close button or a click on the backdrop close it.
 */
export function Modal({ open, ...props }: ModalProps) {
  useScrollLock(open);
  return open ? <OpenModal {...props} /> : null;
}

function OpenModal({
  onClose,
  title,
  children,
  footer,
  icon,
  initialFocusRef,
  role = 'dialog',
}: Omit<ModalProps, 'open'>) {
  const titleId = useId();
  const bodyId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();
  useModalDialog(dialogRef, { onClose, initialFocusRef });

  return createPortal(
    // The <dialog> covers the screen as the backdrop; the panel inside is what the shopper sees.
    <dialog
      ref={dialogRef}
      className="modal-backdrop"
      data-testid="modal-backdrop"
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal">
        <IconButton className="modal__close" label={t('common.close')} onClick={onClose}>
          <CloseIcon />
        </IconButton>
        <div className="modal__header">
          {icon ? <div className="modal__icon">{icon}</div> : null}
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
        </div>
        <ToastSlot />
        <div id={bodyId} className="modal__body">
          {children}
        </div>
        {footer ? <div className="modal__footer">{footer}</div> : null}
      </div>
    </dialog>,
    document.body,
  );
}
