import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';

import { pollWhileDown } from '@/lib/live-events';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import type { Chat, ChatMessage, Schemas } from '@/types/api';

/** A chat in the staff list: no messages, but the newest one, and where the next page starts. */
export type StaffChat = Chat &
  Omit<Schemas['ListedChat'], keyof Chat | 'last_message'> & {
    accepted_by: number | null;
    last_message: ChatMessage | null;
  };

/** open: waiting for or talking to an agent; all: closed chats too (the panel offers these two). */
export type StaffChatsFilter = Exclude<Schemas['StaffChatFilter'], 'closed'>;

/** How often the panel refreshes the list and the open conversation (docs/product.md, Constants and limits). */
export const LIVE_CHATS_POLL_MS = 5000;

/** How many chats one page of the list holds (the server's page size). */
export const STAFF_CHATS_PAGE = 50;

/**
 * GET /api/admin/chats: one page (50) of the chats that asked for a live agent, newest activity
 * first; closed chats only with `status: 'all'`; `before` continues after a listed chat.
 */
export function getStaffChats({
  status = 'open',
  before,
  signal,
}: { status?: StaffChatsFilter; before?: string; signal?: AbortSignal } = {}): Promise<
  StaffChat[]
> {
  return api.get('/admin/chats', {
    params: {
      query: { status: status === 'open' ? undefined : status, before: before || undefined },
    },
    signal,
  }) as Promise<StaffChat[]>;
}

export const liveChatKeys = queryKeys.liveChats;

export type StaffChatPages = InfiniteData<StaffChat[], string | null>;

export function getStaffChatsQueryOptions(status: StaffChatsFilter = 'open') {
  return infiniteQueryOptions({
    queryKey: liveChatKeys.filteredList(status),
    queryFn: ({ signal, pageParam }) =>
      getStaffChats({ status, before: pageParam ?? undefined, signal }),
    initialPageParam: null as string | null,
    // a full page may have more after it
    getNextPageParam: (lastPage) =>
      lastPage.length >= STAFF_CHATS_PAGE ? (lastPage[lastPage.length - 1]?.cursor ?? null) : null,
    // polled only while the event stream is down (a chat event refetches the list)
    refetchInterval: pollWhileDown(LIVE_CHATS_POLL_MS),
    staleTime: 0,
    // Staff data: dropped whenever the session changes.
    meta: { userScoped: true },
  });
}

/** The list's pages, polled every 5 s (every loaded page is refreshed). */
export function useStaffChats(status: StaffChatsFilter = 'open') {
  return useInfiniteQuery(getStaffChatsQueryOptions(status));
}
