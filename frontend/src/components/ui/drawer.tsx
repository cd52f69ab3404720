import { useTranslation } from 'react-i18next';
import { useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

import { useModalDialog } from '@/hooks/use-modal-dialog';
import { useScrollLock } from '@/hooks/use-scroll-lock';

import { ToastSlot } from './toast';
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

/** A panel sliding in from the right; full width on phones. A modal `<dialog>` while open. */
export function Drawer({ open, ...props }: DrawerProps) {
  useScrollLock(open);
  return open ? <OpenDrawer {...props} /> : null;
}

function OpenDrawer({
  onClose,
  title,
  children,
  footer,
  returnFocusRef,
}: Omit<DrawerProps, 'open'>) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const { t } = useTranslation();
  useModalDialog(dialogRef, { onClose, returnFocusRef });

  return createPortal(
    // The <dialog> covers the screen as the backdrop; the panel inside slides in.
    <dialog
      ref={dialogRef}
      className="drawer-backdrop"
      data-testid="drawer-backdrop"
      aria-modal="true"
      aria-labelledby={titleId}
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="drawer">
        <div className="drawer__header">
          <h2 id={titleId} className="drawer__title">
            {title}
          </h2>
          <IconButton label={t('cart.close')} size="lg" onClick={onClose}>
            <CloseIcon />
          </IconButton>
        </div>
        <ToastSlot />
        <div className="drawer__body">{children}</div>
        {footer ? <div className="drawer__footer">{footer}</div> : null}
      </div>
    </dialog>,
    document.body,
  );
}
