import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ChatLauncher } from '@/features/chat/components/chat-launcher';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import { CHAT_SESSION_STORAGE_KEY } from '@/features/chat/utils/chat-session-id';
import { stubApi, type StubCall } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { Chat, ChatMessage, ChatSenderType } from '@/types/api';

const GREETING =
  "Hi! I'm the Garden Shop assistant. Ask me about prices, stock, delivery or payment.";
const JOINED = 'You are now connected to a live agent.';

let nextMessageId = 1;
let nextChat = 1;

function message(text: string, sender: ChatSenderType): ChatMessage {
  return {
    id: nextMessageId++,
    message: text,
    sender_type: sender,
    created_at: '2026-11-21T10:00:00Z',
  };
}

function chat(id: string, overrides: Partial<Chat> = {}): Chat {
  return {
    id,
    status: 'ai',
    user: null,
    created_at: '2026-11-21T10:00:00Z',
    accepted_by: null,
    accepted_by_name: null,
    has_unread_messages: false,
    ...overrides,
  };
}

/**
 * A fake help-chat server: each start-ai makes a new chat with the greeting; send stores the
 * message and, while with the assistant, a reply; start-live moves the chat to pending.
 */
function fakeChatServer({ offerLiveAgent = false } = {}) {
  const chats = new Map<string, { chat: Chat; messages: ChatMessage[] }>();
  const stub = stubApi({
    'POST /chat/start-ai': () => {
      const id = `chat-${nextChat++}`;
      const entry = { chat: chat(id), messages: [message(GREETING, 'bot')] };
      chats.set(id, entry);
      return jsonResponse({ chat_id: id, chat: { ...entry.chat, messages: entry.messages } });
    },
    'POST /chat/send': ({ body }) => {
      const { chat_id, message: text } = body as { chat_id: string; message: string };
      const entry = chats.get(chat_id);
      if (!entry) return jsonResponse({ message: 'Chat not found.' }, 404);
      const mine = message(text, 'guest');
      entry.messages.push(mine);
      const reply =
        entry.chat.status === 'ai' ? message(`The Raccoon costs $4.99. (${text})`, 'bot') : null;
      if (reply) entry.messages.push(reply);
      return jsonResponse({
        message: mine,
        reply,
        offer_live_agent: reply !== null && offerLiveAgent,
      });
    },
    'POST /chat/start-live': ({ body }) => {
      const { chat_id } = body as { chat_id: string };
      const entry = chats.get(chat_id);
      if (!entry) return jsonResponse({ message: 'Chat not found.' }, 404);
      entry.chat = { ...entry.chat, status: 'pending' };
      entry.messages.push(message('You asked for a live agent.', 'system'));
      return jsonResponse({ chat_id, chat: entry.chat });
    },
    'GET /chat/status': ({ query }) => {
      const entry = chats.get(query.get('chat_id') ?? '');
      return entry ? jsonResponse(entry.chat) : jsonResponse({ message: 'Chat not found.' }, 404);
    },
    'GET /chat/history': ({ query }) => {
      const entry = chats.get(query.get('chat_id') ?? '');
      return entry
        ? jsonResponse({ chat: { ...entry.chat, messages: entry.messages } })
        : jsonResponse({ message: 'Chat not found.' }, 404);
    },
  });
  const deleteHandler = ({ path }: StubCall) => {
    const id = path.split('/').at(-1) ?? '';
    chats.delete(id);
    return jsonResponse({ message: 'Chat ended.' });
  };
  return {
    ...stub,
    chats,
    /** Staff join the chat, as the server does: connected, with the system notice. */
    accept(id: string) {
      const entry = chats.get(id);
      if (!entry) throw new Error(`no chat ${id}`);
      entry.chat = { ...entry.chat, status: 'connected', accepted_by: 7, accepted_by_name: 'Ann' };
      entry.messages.push(message(JOINED, 'system'));
    },
    staffSays(id: string, text: string) {
      chats.get(id)?.messages.push(message(text, 'admin'));
    },
    allowDelete(id: string, answer?: () => Response) {
      stub.handlers[`DELETE /chat/${id}`] = answer ?? deleteHandler;
    },
  };
}

function setup() {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  const result = renderWithProviders(<ChatLauncher />);
  return { ...result, user };
}

const launcher = () => screen.getByRole('button', { name: 'Chat with us' });
const chatWindow = () => screen.getByRole('dialog', { name: 'Help chat' });
const conversation = () => within(chatWindow()).getByRole('log', { name: 'Conversation' });
const messageBox = () => within(chatWindow()).getByRole('textbox', { name: 'Message' });

async function openChat(user: ReturnType<typeof userEvent.setup>) {
  await user.click(launcher());
  await screen.findByRole('dialog', { name: 'Help chat' });
  await within(conversation()).findByText(GREETING);
}

async function send(user: ReturnType<typeof userEvent.setup>, text: string) {
  await user.type(messageBox(), `${text}{Enter}`);
}

/** Lets the 3-second polls run. */
async function pollOnce() {
  await act(() => vi.advanceTimersByTimeAsync(3000));
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  useChatWidgetStore.setState({ isOpen: false });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('help chat widget', () => {
  it('is closed by default and opens with the bot greeting, focus in the message box', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(launcher()).toHaveAttribute('aria-expanded', 'false');

    await openChat(user);
    expect(launcher()).toHaveAttribute('aria-expanded', 'true');
    expect(messageBox()).toHaveFocus();
    // The session id is made once and kept for this browser.
    const sessionId = window.localStorage.getItem(CHAT_SESSION_STORAGE_KEY);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.callsTo('POST /chat/start-ai')[0]?.body).toEqual({ session_id: sessionId });
    expect(conversation()).toHaveAttribute('aria-live', 'polite');
  });

  it('sends trimmed messages with Enter, shows the reply, and never sends a blank one', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);

    await send(user, '   ');
    expect(server.callsTo('POST /chat/send')).toHaveLength(0);

    await send(user, '  how much is the raccoon  ');
    expect(
      await within(conversation()).findByText('The Raccoon costs $4.99. (how much is the raccoon)'),
    ).toBeInTheDocument();
    expect(within(conversation()).getByText('how much is the raccoon')).toBeInTheDocument();
    const [sent] = server.callsTo('POST /chat/send');
    expect(sent?.body).toEqual({
      chat_id: 'chat-' + String(nextChat - 1),
      session_id: window.localStorage.getItem(CHAT_SESSION_STORAGE_KEY),
      message: 'how much is the raccoon',
    });
    expect(messageBox()).toHaveValue('');
    // In the assistant chat nothing is polled.
    expect(server.callsTo('GET /chat/status')).toHaveLength(0);
  });

  it('holds a message sent while the chat is still starting and sends it once the chat is ready', async () => {
    const server = fakeChatServer();
    const start = server.handlers['POST /chat/start-ai'];
    if (!start) throw new Error('no start-ai handler');
    let letStart = () => {};
    const started = new Promise<void>((resolve) => (letStart = resolve));
    server.handlers['POST /chat/start-ai'] = async (call) => {
      await started;
      return start(call);
    };
    const { user } = setup();
    await user.click(launcher());
    await screen.findByRole('dialog', { name: 'Help chat' });
    expect(conversation()).toHaveAttribute('aria-busy', 'true');

    await send(user, 'where is my order?');
    expect(server.callsTo('POST /chat/send')).toHaveLength(0);
    expect(messageBox()).toHaveValue('where is my order?');

    letStart();
    expect(
      await within(conversation()).findByText('The Raccoon costs $4.99. (where is my order?)'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /chat/send')).toHaveLength(1);
    expect(messageBox()).toHaveValue('');
  });

  it('offers the live agent prominently when the bot is not confident', async () => {
    fakeChatServer({ offerLiveAgent: true });
    const { user } = setup();
    await openChat(user);
    expect(screen.queryByText('Would you like a person to help you?')).not.toBeInTheDocument();
    await send(user, 'my pet vanished');
    expect(await screen.findByText('Would you like a person to help you?')).toBeInTheDocument();
    expect(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' })).toHaveClass(
      'btn--primary',
    );
  });

  it('waits for an agent with sending blocked, then connects when staff join', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);
    const chatId = `chat-${nextChat - 1}`;

    await user.click(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Waiting for agent to join...');
    expect(server.callsTo('POST /chat/start-live')[0]?.body).toMatchObject({ chat_id: chatId });
    expect(messageBox()).toBeDisabled();
    expect(within(chatWindow()).getByRole('button', { name: 'Send message' })).toBeDisabled();
    expect(
      within(chatWindow()).queryByRole('button', { name: 'Talk to Live Agent' }),
    ).not.toBeInTheDocument();

    // Nobody joined yet: still waiting after a poll.
    await pollOnce();
    expect(server.callsTo('GET /chat/status').length).toBeGreaterThan(0);
    expect(screen.getByText('Waiting for agent to join...')).toBeInTheDocument();

    server.accept(chatId);
    await pollOnce();
    expect(await within(conversation()).findByText(JOINED)).toBeInTheDocument();
    expect(screen.queryByText('Waiting for agent to join...')).not.toBeInTheDocument();
    expect(within(chatWindow()).getByText('Live agent: Ann')).toBeInTheDocument();
    // The notice shows once, though the server's history carries it too.
    expect(within(conversation()).getAllByText(JOINED)).toHaveLength(1);

    // Connected: the shopper and the agent talk.
    expect(messageBox()).toBeEnabled();
    await send(user, 'hello agent');
    expect(await within(conversation()).findByText('hello agent')).toBeInTheDocument();
    expect(server.chats.get(chatId)?.messages.at(-1)?.message).toBe('hello agent');
    server.staffSays(chatId, 'Hi, I am Ann. How can I help?');
    await pollOnce();
    expect(
      await within(conversation()).findByText('Hi, I am Ann. How can I help?'),
    ).toBeInTheDocument();
    expect(within(conversation()).getByText('Ann (agent)')).toBeInTheDocument();
  });

  it('starts a fresh bot chat when a poll finds the chat gone (404)', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);
    const chatId = `chat-${nextChat - 1}`;
    await send(user, 'first question');
    await within(conversation()).findByText('first question');
    await user.click(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' }));
    await screen.findByText('Waiting for agent to join...');

    server.chats.delete(chatId);
    await pollOnce();
    await waitFor(() => expect(server.callsTo('POST /chat/start-ai')).toHaveLength(2));
    expect(await within(conversation()).findByText(GREETING)).toBeInTheDocument();
    expect(within(conversation()).queryByText('first question')).not.toBeInTheDocument();
    expect(screen.queryByText('Waiting for agent to join...')).not.toBeInTheDocument();
    expect(messageBox()).toBeEnabled();
  });

  it('End chat deletes the accepted chat, clears the messages and restarts the bot', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);
    const chatId = `chat-${nextChat - 1}`;
    await user.click(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' }));
    await screen.findByText('Waiting for agent to join...');
    server.accept(chatId);
    await pollOnce();
    await within(conversation()).findByText(JOINED);
    server.allowDelete(chatId);

    await user.click(within(chatWindow()).getByRole('button', { name: 'End chat' }));
    await waitFor(() => expect(server.callsTo('POST /chat/start-ai')).toHaveLength(2));
    const [deleted] = server.callsTo(`DELETE /chat/${chatId}`);
    expect(deleted?.query.get('session_id')).toBe(
      window.localStorage.getItem(CHAT_SESSION_STORAGE_KEY),
    );
    expect(await within(conversation()).findByText(GREETING)).toBeInTheDocument();
    expect(within(conversation()).queryByText(JOINED)).not.toBeInTheDocument();
    expect(within(chatWindow()).queryByRole('button', { name: 'End chat' })).toBeNull();
  });

  it('restarts the bot even when ending the chat fails', async () => {
    const server = fakeChatServer();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = setup();
    await openChat(user);
    const chatId = `chat-${nextChat - 1}`;
    await user.click(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' }));
    server.accept(chatId);
    await pollOnce();
    await within(conversation()).findByText(JOINED);
    server.allowDelete(chatId, () => jsonResponse({ message: 'Server error' }, 500));

    await user.click(within(chatWindow()).getByRole('button', { name: 'End chat' }));
    await waitFor(() => expect(server.callsTo('POST /chat/start-ai')).toHaveLength(2));
    expect(await within(conversation()).findByText(GREETING)).toBeInTheDocument();
    expect(within(conversation()).queryByText(JOINED)).not.toBeInTheDocument();
  });

  it('Escape closes the window, focus returns to the launcher, and reopening starts afresh', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);
    await send(user, 'remember me');
    await within(conversation()).findByText('remember me');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(launcher()).toHaveFocus();

    await openChat(user);
    expect(server.callsTo('POST /chat/start-ai')).toHaveLength(2);
    expect(within(conversation()).queryByText('remember me')).not.toBeInTheDocument();
    // One session id for the browser, however many chats.
    const sessions = new Set(
      server
        .callsTo('POST /chat/start-ai')
        .map((call) => (call.body as { session_id: string }).session_id),
    );
    expect(sessions.size).toBe(1);
  });

  it('closing a live chat ends it on the server and stops polling', async () => {
    const server = fakeChatServer();
    const { user } = setup();
    await openChat(user);
    const chatId = `chat-${nextChat - 1}`;
    server.allowDelete(chatId);
    await user.click(within(chatWindow()).getByRole('button', { name: 'Talk to Live Agent' }));
    await screen.findByText('Waiting for agent to join...');

    await user.click(within(chatWindow()).getByRole('button', { name: 'Close help chat' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(server.callsTo(`DELETE /chat/${chatId}`)).toHaveLength(1));
    const polls = server.callsTo('GET /chat/status').length;
    await pollOnce();
    await pollOnce();
    expect(server.callsTo('GET /chat/status')).toHaveLength(polls);
  });

  it('says so when the chat cannot start, and tries again', async () => {
    const server = fakeChatServer();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const working = server.handlers['POST /chat/start-ai'];
    server.handlers['POST /chat/start-ai'] = () => jsonResponse({ message: 'down' }, 503);
    const { user } = setup();
    await user.click(launcher());
    expect(await screen.findByRole('alert')).toHaveTextContent("We couldn't start the chat.");
    if (working) server.handlers['POST /chat/start-ai'] = working;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await within(conversation()).findByText(GREETING)).toBeInTheDocument();
  });
});
