import i18next from 'i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';

import { ApiError } from '@/lib/api-client';
import type { Chat, ChatMessage } from '@/types/api';

import { endChat } from '@/features/chat/api/end-chat';
import {
  chatKeys,
  getChatHistory,
  getChatHistoryQueryOptions,
} from '@/features/chat/api/get-chat-history';
import { getChatStatusQueryOptions } from '@/features/chat/api/get-chat-status';
import { sendChatMessage } from '@/features/chat/api/send-chat-message';
import { startAiChat } from '@/features/chat/api/start-ai-chat';
import { startLiveChat } from '@/features/chat/api/start-live-chat';
import { appendMessages, mergeMessages } from '@/features/chat/utils/merge-messages';

/** How often the window asks about a live chat (docs/product.md, Constants and limits). */
export const CHAT_POLL_MS = 3000;

/**
 * Shown when staff join (the server stores it too, in English; the window adds it, in the shop's
 * language, if the history lacks it).
 */
export const AGENT_JOINED_NOTICE = 'You are now connected to a live agent.';

/** The error line when a send (a 422 shows the server's word) or Talk to Live Agent fails. */
const SEND_FAILED = () => i18next.t('chat.sendFailed');
const AGENT_UNREACHABLE = () => i18next.t('chat.agentUnreachable');

/**
 * The writes fail as they did before react-query: at once, online or not (the default
 * networkMode would hold them until the browser says it is online again).
 */
const networkMode = 'always';

/**
 * starting: the assistant chat is being opened; ai: talking to the assistant; pending: waiting
 * for staff (sending blocked); connected: staff joined; unavailable: the chat could not start.
 */
export type ChatPhase = 'starting' | 'ai' | 'pending' | 'connected' | 'unavailable';

type State = {
  chatId: string | null;
  /** Never 'unavailable': that is 'starting' with the start mutation failed. */
  phase: ChatPhase;
  /** The assistant was not confident: Talk to Live Agent is offered prominently. */
  offerLiveAgent: boolean;
  agentName: string | null;
  /** Bumped to start a fresh assistant chat. */
  generation: number;
};

type Action =
  | { type: 'started'; chatId: string }
  | { type: 'offer'; offerLiveAgent: boolean }
  | { type: 'live'; chat: Chat; chatId: string }
  | { type: 'connected'; agentName: string | null }
  | { type: 'restart' };

const initialState: State = {
  chatId: null,
  phase: 'starting',
  offerLiveAgent: false,
  agentName: null,
  generation: 0,
};

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'started':
      return { ...state, chatId: action.chatId, phase: 'ai', offerLiveAgent: false };
    case 'offer':
      return { ...state, offerLiveAgent: action.offerLiveAgent };
    case 'live':
      return {
        ...state,
        chatId: action.chatId,
        phase: action.chat.accepted_by != null ? 'connected' : 'pending',
        agentName: action.chat.accepted_by_name,
        offerLiveAgent: false,
      };
    case 'connected':
      return { ...state, phase: 'connected', agentName: action.agentName };
    case 'restart':
      return { ...initialState, generation: state.generation + 1 };
  }
}

const isLive = (phase: ChatPhase) => phase === 'pending' || phase === 'connected';

type Dispatch = (action: Action) => void;
type MountedRef = { readonly current: boolean };

/** The writes: start, send, start live, end (their pending and error states show in the window). */
function useChatMutations() {
  const start = useMutation({ mutationFn: startAiChat, networkMode });
  const send = useMutation({
    mutationFn: ({ chatId, text }: { chatId: string; text: string }) =>
      sendChatMessage(chatId, text),
    networkMode,
  });
  const live = useMutation({ mutationFn: startLiveChat, networkMode });
  const end = useMutation({ mutationFn: endChat, networkMode });
  return { start, send, live, end };
}

type ChatMutations = ReturnType<typeof useChatMutations>;

/**
 * Why the last send or live-agent request failed; each try clears the other's error. A send
 * that found the chat gone (404) starts over instead.
 */
function sendErrorOf({ send, live }: ChatMutations): string | null {
  if (send.error && !(send.error instanceof ApiError && send.error.isNotFound)) {
    return send.error instanceof ApiError && send.error.status === 422
      ? send.error.message
      : SEND_FAILED();
  }
  return live.isError ? AGENT_UNREACHABLE() : null;
}

/** Results that arrive after the window closed are dropped: this says whether it is open. */
function useMounted(): MountedRef {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  return mounted;
}

/** One assistant chat per generation (React's development double effects start only one). */
function useStartChat(
  generation: number,
  startChat: ChatMutations['start']['mutateAsync'],
  { mounted, dispatch }: { mounted: MountedRef; dispatch: Dispatch },
) {
  const queryClient = useQueryClient();
  const startedGeneration = useRef(-1);
  useEffect(() => {
    if (startedGeneration.current === generation) return;
    startedGeneration.current = generation;
    startChat().then(
      ({ chat_id, chat }) => {
        if (!mounted.current) return;
        queryClient.setQueryData(chatKeys.history(chat_id), chat.messages ?? []);
        // The session's open chat comes back as it is: maybe already waiting for or with an agent.
        if (chat.status === 'pending' || chat.status === 'connected') {
          dispatch({ type: 'live', chat, chatId: chat_id });
        } else {
          dispatch({ type: 'started', chatId: chat_id });
        }
      },
      (error: unknown) => {
        // The mutation's error turns the phase to 'unavailable'.
        console.error('Could not start the help chat:', error);
      },
    );
  }, [generation, queryClient, startChat, mounted, dispatch]);
}

/** The conversation, and while live the chat's status, polled every `pollMs`. */
function useChatPolls(chatId: string | null, live: boolean, pollMs: number) {
  const queryClient = useQueryClient();
  const history = useQuery({
    ...getChatHistoryQueryOptions(chatId ?? '', live ? pollMs : false),
    // Keeps messages this window holds that a poll in flight could not know of yet.
    queryFn: async ({ signal }) => {
      const server = await getChatHistory(chatId ?? '', { signal });
      const local = queryClient.getQueryData<ChatMessage[]>(chatKeys.history(chatId ?? '')) ?? [];
      return mergeMessages(server, local);
    },
    enabled: chatId !== null,
  });

  const status = useQuery({
    ...getChatStatusQueryOptions(chatId ?? '', pollMs),
    enabled: chatId !== null && live,
  });
  return { history, status };
}

type ChatWatch = {
  polls: ReturnType<typeof useChatPolls>;
  phase: ChatPhase;
  chatId: string | null;
  restart: () => void;
  dispatch: Dispatch;
};

/** What the polls tell: the chat gone (a fresh assistant chat), or staff joined. */
function useChatWatch({ polls: { history, status }, phase, chatId, restart, dispatch }: ChatWatch) {
  const queryClient = useQueryClient();
  const live = isLive(phase);
  // The chat is gone (404 on a poll) or was closed: a fresh assistant chat.
  const gone =
    (status.error instanceof ApiError && status.error.isNotFound) ||
    (history.error instanceof ApiError && history.error.isNotFound) ||
    (live && status.data?.status === 'closed');
  useEffect(() => {
    if (gone) restart();
  }, [gone, restart]);

  // Staff joined: connected, and the conversation is fetched at once.
  const acceptedBy = status.data?.accepted_by ?? null;
  const acceptedByName = status.data?.accepted_by_name ?? null;
  useEffect(() => {
    if (phase !== 'pending' || acceptedBy === null || chatId === null) return;
    dispatch({ type: 'connected', agentName: acceptedByName });
    void queryClient.invalidateQueries({ queryKey: chatKeys.history(chatId) });
  }, [phase, acceptedBy, acceptedByName, chatId, queryClient, dispatch]);
}

type ChatActions = {
  mutations: ChatMutations;
  phase: ChatPhase;
  chatId: string | null;
  mounted: MountedRef;
  restart: () => void;
  dispatch: Dispatch;
};

/** Send, Talk to Live Agent and End chat. */
function useChatActions({ mutations, phase, chatId, mounted, restart, dispatch }: ChatActions) {
  const queryClient = useQueryClient();
  const { mutateAsync: sendMessage } = mutations.send;
  const { mutateAsync: askForAgent, reset: resetLive } = mutations.live;
  const { reset: resetSend } = mutations.send;
  const { mutateAsync: endChatNow } = mutations.end;
  const sending = mutations.send.isPending;
  const requestingAgent = mutations.live.isPending;
  const ending = mutations.end.isPending;
  const live = isLive(phase);

  /** Sends `text` (trimmed; blank is ignored). Blocked while waiting for an agent. */
  const send = useCallback(
    async (text: string): Promise<boolean> => {
      const trimmed = text.trim();
      if (!trimmed || chatId === null || sending) return false;
      if (phase !== 'ai' && phase !== 'connected') return false;
      resetLive();
      try {
        const sent = await sendMessage({ chatId, text: trimmed });
        if (!mounted.current) return true;
        queryClient.setQueryData<ChatMessage[]>(chatKeys.history(chatId), (current = []) =>
          appendMessages(current, [sent.message, sent.reply]),
        );
        if (sent.reply) dispatch({ type: 'offer', offerLiveAgent: sent.offer_live_agent });
        return true;
      } catch (error) {
        console.error('Could not send the chat message:', error);
        if (error instanceof ApiError && error.isNotFound) restart();
        return false;
      }
    },
    [chatId, phase, sending, queryClient, restart, resetLive, sendMessage, mounted, dispatch],
  );

  /** Talk to Live Agent: the assistant chat moves to pending and polling starts. */
  const requestAgent = useCallback(async () => {
    if (phase !== 'ai' || requestingAgent) return;
    resetSend();
    try {
      const { chat_id, chat } = await askForAgent(chatId);
      if (!mounted.current) return;
      if (chat.messages) queryClient.setQueryData(chatKeys.history(chat_id), chat.messages);
      dispatch({ type: 'live', chat, chatId: chat_id });
      void queryClient.invalidateQueries({ queryKey: chatKeys.history(chat_id) });
    } catch (error) {
      console.error('Could not ask for a live agent:', error);
    }
  }, [chatId, phase, requestingAgent, queryClient, resetSend, askForAgent, mounted, dispatch]);

  /**
   * Ends a live chat: removes it on the server (a failure is logged only), clears the
   * conversation and starts a fresh assistant chat.
   */
  const endLiveChat = useCallback(async () => {
    if (!live || chatId === null || ending) return;
    try {
      await endChatNow(chatId);
    } catch (error) {
      console.error('Could not end the live chat:', error);
    } finally {
      if (mounted.current) restart();
    }
  }, [live, chatId, ending, restart, endChatNow, mounted]);

  return { send, requestAgent, endLiveChat };
}

/**
 * The help chat's state machine (docs/product.md, Behaviour): opened, it starts an assistant chat with the fixed
 * greeting; Talk to Live Agent moves it to pending; polling every 3 s notices when staff join
 * (connected) and when the chat is gone (404: a fresh assistant chat). Ending a live chat
 * removes it and starts over. The whole state lives in the window, so closing it resets all.
 * The writes (start, send, start live, end) are react-query mutations: their pending and error
 * states are the window's spinners and error line.
 */
export function useHelpChat({ pollMs = CHAT_POLL_MS }: { pollMs?: number } = {}) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(reducer, initialState);
  const { chatId, generation } = state;
  const mutations = useChatMutations();
  const { reset: resetStart } = mutations.start;
  const { reset: resetSend } = mutations.send;
  const { reset: resetLive } = mutations.live;
  const { reset: resetEnd } = mutations.end;

  const phase: ChatPhase =
    state.phase === 'starting' && mutations.start.isError ? 'unavailable' : state.phase;
  const live = isLive(phase);

  const mounted = useMounted();
  useStartChat(generation, mutations.start.mutateAsync, { mounted, dispatch });
  const polls = useChatPolls(chatId, live, pollMs);

  const restart = useCallback(() => {
    queryClient.removeQueries({ queryKey: chatKeys.all });
    resetStart();
    resetSend();
    resetLive();
    resetEnd();
    dispatch({ type: 'restart' });
  }, [queryClient, resetStart, resetSend, resetLive, resetEnd]);

  useChatWatch({ polls, phase, chatId, restart, dispatch });
  const actions = useChatActions({ mutations, phase, chatId, mounted, restart, dispatch });

  const messages = polls.history.data ?? [];
  return {
    phase,
    chatId,
    messages,
    joinedNoticeMissing:
      phase === 'connected' &&
      !messages.some((message) =>
        [AGENT_JOINED_NOTICE, i18next.t('chat.agentJoined')].includes(message.message),
      ),
    agentName: state.agentName,
    offerLiveAgent: state.offerLiveAgent,
    sending: mutations.send.isPending,
    requestingAgent: mutations.live.isPending,
    ending: mutations.end.isPending,
    sendError: sendErrorOf(mutations),
    canSend: phase === 'ai' || phase === 'connected',
    /** For closing the window: a live chat nobody will read any more is ended on the server. */
    chatToEndOnClose: live ? chatId : null,
    ...actions,
    retryStart: restart,
  };
}
