import { useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

import { Button } from '@/components/ui/button';
import { IconButton } from '@/components/ui/icon-button';
import { ChatIcon, CloseIcon } from '@/components/ui/icons';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';
import { StateMessage } from '@/components/ui/state-message';
import { useModalDialog } from '@/hooks/use-modal-dialog';
import { useScrollLock } from '@/hooks/use-scroll-lock';

import { useStaffChat } from '@/features/live-chats/api/get-staff-chat';
import {
  useStaffChats,
  type StaffChat,
  type StaffChatsFilter,
} from '@/features/live-chats/api/get-staff-chats';
import { StaffChatList } from './staff-chat-list';
import { StaffConversation } from './staff-conversation';
import '@/components/ui/field.css';
import './live-chats-panel.css';

type ChatsListProps = {
  chats: ReturnType<typeof useStaffChats>;
  selectedId: string | null;
  onSelect: (chatId: string) => void;
};

/** The desk's list: its loading, its error, "No live chats yet", or the chats and Load more. */
function ChatsList({ chats, selectedId, onSelect }: ChatsListProps) {
  return (
    <QueryBoundary
      query={chats}
      loading={
        <SkeletonList
          className="live-chats__list-loading"
          label="Loading chats"
          height={72}
          count={3}
        />
      }
      errorTitle="We couldn't load the chats"
      headingLevel={3}
    >
      {(data) => {
        const loaded = data.pages.flat();
        if (loaded.length === 0) {
          return (
            <StateMessage
              headingLevel={3}
              icon={<ChatIcon size={28} />}
              title="No live chats yet"
              description="When a shopper asks for a live agent, the chat shows up here."
            />
          );
        }
        return (
          <>
            <StaffChatList chats={loaded} selectedId={selectedId} onSelect={onSelect} />
            {chats.hasNextPage ? (
              <Button
                variant="secondary"
                size="sm"
                fullWidth
                className="live-chats__more"
                loading={chats.isFetchingNextPage}
                onClick={() => void chats.fetchNextPage()}
              >
                Load more
              </Button>
            ) : null}
          </>
        );
      }}
    </QueryBoundary>
  );
}

type LiveChatsPanelProps = {
  onClose: () => void;
};

/**
 * The staff's full-screen chat desk (lazy-loaded): the list polled every 5 s on the left, newest
 * activity first, 50 at a time with "Load more", closed chats on request; the selected
 * conversation on the right (one pane at a time on phones). A modal `<dialog>` covering the
 * screen: the browser keeps focus inside, Escape closes it and focus goes back to the launcher.
 */
export function LiveChatsPanel({ onClose }: LiveChatsPanelProps) {
  const titleId = useId();
  const panelRef = useRef<HTMLDialogElement>(null);
  const [filter, setFilter] = useState<StaffChatsFilter>('open');
  const chats = useStaffChats(filter);
  const loaded = chats.data?.pages.flat();
  const [selectedId, setSelectedId] = useState<string | null>(null);

  useModalDialog(panelRef, { onClose });
  useScrollLock(true);

  const listed = loaded?.find((chat) => chat.id === selectedId) ?? null;
  // A selected chat that left the list (the shopper ended it) stays open, read on its own.
  const missing = selectedId !== null && loaded !== undefined && listed === null;
  const alone = useStaffChat(selectedId, missing);
  // shown while that chat is read on its own, so the conversation does not blink away
  const [lastListed, setLastListed] = useState<StaffChat | null>(null);
  if (listed !== null && listed !== lastListed) setLastListed(listed);
  const stillShown = lastListed?.id === selectedId && !alone.isError ? lastListed : null;
  const selected = listed ?? (missing ? (alone.data ?? stillShown) : null);
  const waiting = loaded?.filter((chat) => chat.status === 'pending').length ?? 0;

  return createPortal(
    <dialog
      ref={panelRef}
      className="live-chats"
      aria-modal="true"
      aria-labelledby={titleId}
      data-has-selection={selected !== null}
    >
      <header className="live-chats__header">
        <h2 id={titleId} className="live-chats__title">
          Live Chats
        </h2>
        {waiting > 0 ? <p className="live-chats__waiting">{waiting} waiting for an agent</p> : null}
        <IconButton label="Close Live Chats" size="lg" onClick={onClose}>
          <CloseIcon />
        </IconButton>
      </header>
      <div className="live-chats__body">
        <nav className="live-chats__list" aria-label="Chats">
          <label className="form-check live-chats__filter">
            <input
              type="checkbox"
              checked={filter === 'all'}
              onChange={(event) => setFilter(event.target.checked ? 'all' : 'open')}
            />
            Show closed chats
          </label>
          <ChatsList chats={chats} selectedId={selectedId} onSelect={setSelectedId} />
        </nav>
        <div className="live-chats__conversation">
          {selected ? (
            <StaffConversation
              key={selected.id}
              chat={selected}
              onBack={() => setSelectedId(null)}
              onDeleted={() => setSelectedId(null)}
            />
          ) : (
            <StateMessage
              headingLevel={3}
              icon={<ChatIcon size={28} />}
              title="Select a chat"
              description="Pick a conversation on the left to read it, join it and reply."
            />
          )}
        </div>
      </div>
    </dialog>,
    document.body,
  );
}
