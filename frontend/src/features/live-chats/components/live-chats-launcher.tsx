import { lazy, Suspense, useRef, useState } from 'react';

import { HeadsetIcon } from '@/components/ui/icons';
import { useOutOfTheWay } from '@/hooks/use-out-of-the-way';

import './live-chats-launcher.css';

const loadPanel = () => import('./live-chats-panel');

/** The panel's code downloads on the first open (or hover), only for staff. */
const LiveChatsPanel = lazy(async () => ({ default: (await loadPanel()).LiveChatsPanel }));

/**
 * 'Live Chats', bottom left, for admin and super_admin: opens the full-screen chat panel. Like the
 * help chat's button it steps aside while a form or a marked control is under it (see
 * `useOutOfTheWay`), so on the delivery queue a tap on Claim is never a tap on Live Chats.
 */
export function LiveChatsLauncher() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const away = useOutOfTheWay(buttonRef, !open);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={away ? 'live-chats-launcher live-chats-launcher--away' : 'live-chats-launcher'}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => setOpen(true)}
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        <HeadsetIcon size={20} />
        Live Chats
      </button>
      {open ? (
        <Suspense
          fallback={
            <div className="live-chats-launcher__loading" role="status">
              Opening Live Chats…
            </div>
          }
        >
          <LiveChatsPanel onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
