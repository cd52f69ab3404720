import { IconButton } from '@/components/ui/icon-button';
import { AlertIcon, CheckCircleIcon, CloseIcon } from '@/components/ui/icons';

import { useToastStore } from './toast-store';
import './toast.css';

/** Where toasts appear. Mounted once, in the app shell. */
export function Toaster() {
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);

  return (
    <div className="toaster" role="region" aria-label="Notifications">
      <div aria-live="polite" aria-atomic="false" className="toaster__list">
        {toasts.map((item) => (
          <div key={item.id} className={`toast toast--${item.tone}`}>
            <span className="toast__icon">
              {item.tone === 'error' ? <AlertIcon /> : <CheckCircleIcon />}
            </span>
            <p className="toast__message">{item.message}</p>
            <IconButton
              className="toast__dismiss"
              label="Dismiss notification"
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
}
