import { useTranslation } from 'react-i18next';
import { createPortal } from 'react-dom';

import { IconButton } from '@/components/ui/icon-button';
import { AlertIcon, CheckCircleIcon, CloseIcon } from '@/components/ui/icons';
import { useTopModalDialog } from '@/hooks/use-modal-dialog';

import { useToastStore } from './toast-store';
import './toast.css';

/** What a dialog marks as its place for toasts: under its title, above its content. */
const SLOT_ATTRIBUTE = 'data-toast-slot';

/**
 * A dialog's place for toasts (the cart drawer, a modal), right under its header. The toasts sit
 * there in the flow, so they push the content down instead of covering its title, its lines or
 * its buttons (issue 34: on a phone "Added to cart" hid the drawer's title).
 */
export function ToastSlot() {
  return <div className="toast-slot" {...{ [SLOT_ATTRIBUTE]: '' }} />;
}

/**
 * Where toasts appear. Mounted once, in the app shell. While a modal dialog is open the page
 * behind it is inert, so the toasts move into the dialog to stay seen, heard and dismissable:
 * into its {@link ToastSlot} where it has one.
 */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  const dialog = useTopModalDialog();

  const toaster = (
    <div className="toaster" role="region" aria-label={t('common.notifications')}>
      <div aria-live="polite" aria-atomic="false" className="toaster__list">
        {toasts.map((item) => (
          <div key={item.id} className={`toast toast--${item.tone}`}>
            <span className="toast__icon">
              {item.tone === 'error' ? <AlertIcon /> : <CheckCircleIcon />}
            </span>
            <p className="toast__message">{item.message}</p>
            <IconButton
              className="toast__dismiss"
              label={t('common.dismissNotification')}
              size="xs"
              tone="inverse"
              onClick={() => dismiss(item.id)}
            >
              <CloseIcon size={16} />
            </IconButton>
          </div>
        ))}
      </div>
    </div>
  );
  if (!dialog) return toaster;
  return createPortal(toaster, dialog.querySelector(`[${SLOT_ATTRIBUTE}]`) ?? dialog);
}
