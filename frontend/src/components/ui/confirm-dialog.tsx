import { useRef, type ReactNode } from 'react';

import { Button } from './button';
import { AlertIcon } from './icons';
import { Modal } from './modal';

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  /** The question, e.g. "Are you sure you want to delete this proof?" */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** Disables both buttons and shows a spinner on the confirm one while the request runs. */
  busy?: boolean;
};

/** Asks before something that cannot be undone. Cancel has focus first; Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onCancel}
      role="alertdialog"
      initialFocusRef={cancelRef}
      icon={<AlertIcon size={22} />}
      title={title}
      footer={
        <>
          <Button ref={cancelRef} variant="secondary" disabled={busy} onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{children}</p>
    </Modal>
  );
}
