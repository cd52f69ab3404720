import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { LiveChatsLauncher } from '@/features/live-chats/components/live-chats-launcher';
import type { StaffChat } from '@/features/live-chats/api/get-staff-chats';
import { stubApi } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { ChatMessage } from '@/types/api';

function staffChat(id: string, overrides: Partial<StaffChat> = {}): StaffChat {
  return {
    id,
    status: 'pending',
    user: null,
    created_at: '2026-11-21T10:00:00Z',
    accepted_by: null,
    accepted_by_name: null,
    has_unread_messages: false,
    last_message: null,
    cursor: `cursor-${id}`,
    ...overrides,
  };
}

function msg(id: number, text: string, sender: ChatMessage['sender_type']): ChatMessage {
  return { id, message: text, sender_type: sender, created_at: '2026-11-21T10:01:00Z' };
}

/** A waiting guest chat, and one with Ben that Ann joined and that has unread messages. */
function fakeStaffServer() {
  const chats: StaffChat[] = [
    staffChat('c-guest', {
      last_message: msg(2, 'Is the Raccoon in stock?', 'guest'),
    }),
    staffChat('c-ben', {
      status: 'connected',
      user: { id: 4, name: 'Ben' },
      accepted_by: 1,
      accepted_by_name: 'Ann',
      has_unread_messages: true,
      last_message: msg(12, 'Any news?', 'user'),
    }),
  ];
  const messages: Record<string, ChatMessage[]> = {
    'c-guest': [
      msg(1, 'You asked for a live agent.', 'system'),
      msg(2, 'Is the Raccoon in stock?', 'guest'),
    ],
    'c-ben': [
      msg(11, 'You are now connected to a live agent.', 'system'),
      msg(12, 'Any news?', 'user'),
    ],
  };
  let nextId = 100;
  const stub = stubApi({
    'GET /admin/chats': () => jsonResponse(chats),
    'GET /admin/chats/c-guest/messages': () => jsonResponse(messages['c-guest']),
    'GET /admin/chats/c-ben/messages': () => jsonResponse(messages['c-ben']),
    'POST /admin/chats/c-guest/mark-read': () => jsonResponse({ message: 'ok' }),
    'POST /admin/chats/c-ben/mark-read': () => {
      const ben = chats.find((chat) => chat.id === 'c-ben');
      if (ben) ben.has_unread_messages = false;
      return jsonResponse({ message: 'ok' });
    },
    'POST /admin/chats/c-guest/accept': () => {
      const index = chats.findIndex((chat) => chat.id === 'c-guest');
      const accepted = {
        ...staffChat('c-guest'),
        status: 'connected' as const,
        accepted_by: 1,
        accepted_by_name: 'Ann',
      };
      chats[index] = { ...accepted, last_message: null };
      messages['c-guest']?.push(msg(3, 'You are now connected to a live agent.', 'system'));
      return jsonResponse(accepted);
    },
    'POST /chat/admin-reply': ({ body }) => {
      const { chat_id, message } = body as { chat_id: string; message: string };
      const sent = msg(nextId++, message, 'admin');
      messages[chat_id]?.push(sent);
      return jsonResponse({ message: sent });
    },
    'DELETE /admin/chats/c-guest': () => {
      chats.splice(
        chats.findIndex((chat) => chat.id === 'c-guest'),
        1,
      );
      return jsonResponse({ message: 'Conversation deleted.' });
    },
  });
  return { ...stub, chats, messages };
}

function setup() {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  renderWithProviders(<LiveChatsLauncher />);
  return { user };
}

const panel = () => screen.getByRole('dialog', { name: 'Live Chats' });
const chatList = () => within(panel()).getByRole('list', { name: 'Conversations' });
const chatButton = (name: RegExp) => within(chatList()).getByRole('button', { name });

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Live Chats' }));
  await screen.findByRole('dialog', { name: 'Live Chats' });
  await within(panel()).findByRole('list', { name: 'Conversations' });
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('Live Chats panel', () => {
  it('lists chats with a New badge while nobody joined and an unread dot on other chats', async () => {
    const server = fakeStaffServer();
    const { user } = setup();
    await openPanel(user);

    const guest = chatButton(/^Guest/);
    expect(within(guest).getByText('New')).toBeInTheDocument();
    expect(within(guest).getByText('Is the Raccoon in stock?')).toBeInTheDocument();
    expect(within(guest).queryByTestId('unread-dot')).toBeNull();
    const ben = chatButton(/^Ben/);
    expect(within(ben).queryByText('New')).toBeNull();
    expect(within(ben).getByTestId('unread-dot')).toBeInTheDocument();
    expect(within(ben).getByText(/with Ann/)).toBeInTheDocument();

    // Selecting Ben's chat loads the messages and marks them read; the dot goes.
    await user.click(ben);
    expect(
      await within(panel()).findByText('Any news?', { selector: '.message__text' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(server.callsTo('POST /admin/chats/c-ben/mark-read')).toHaveLength(1),
    );
    expect(chatButton(/^Ben/)).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(within(chatButton(/^Ben/)).queryByTestId('unread-dot')).toBeNull());

    // The list is polled every 5 s.
    const before = server.callsTo('GET /admin/chats').length;
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(server.callsTo('GET /admin/chats').length).toBeGreaterThan(before);
  });

  it('joins a waiting chat: toast, In Progress, and replies unlock', async () => {
    fakeStaffServer();
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Guest/));
    await within(panel()).findByText('Is the Raccoon in stock?', { selector: '.message__text' });
    const reply = within(panel()).getByRole('textbox', { name: 'Reply to Guest' });
    expect(reply).toBeDisabled();

    await user.click(within(panel()).getByRole('button', { name: 'Join Chat' }));
    expect(await screen.findByText('Chat accepted')).toBeInTheDocument();
    expect(await within(panel()).findByRole('button', { name: 'In Progress' })).toBeDisabled();
    expect(within(chatButton(/^Guest/)).queryByText('New')).toBeNull();
    await waitFor(() => expect(reply).toBeEnabled());
  });

  it('says so when joining fails', async () => {
    const server = fakeStaffServer();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.handlers['POST /admin/chats/c-guest/accept'] = () =>
      jsonResponse({ message: 'Another agent has already joined this chat.' }, 409);
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Guest/));
    await user.click(await within(panel()).findByRole('button', { name: 'Join Chat' }));
    expect(await screen.findByText('Failed to accept chat')).toBeInTheDocument();
  });

  it('locks the reply button as Sending... for 3 s after a reply, and unlocks at once on failure', async () => {
    const server = fakeStaffServer();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Ben/));
    const reply = await within(panel()).findByRole('textbox', { name: 'Reply to Ben' });
    const sendButton = () =>
      within(panel()).getByRole('button', { name: /^(Send|Sending\.\.\.)$/ });

    // Blank replies are not sent.
    await user.type(reply, '   ');
    expect(sendButton()).toBeDisabled();

    await user.clear(reply);
    await user.type(reply, '  On its way!  {Enter}');
    expect(sendButton()).toHaveTextContent('Sending...');
    expect(sendButton()).toBeDisabled();
    expect(
      await within(panel()).findByText('On its way!', { selector: '.message__text' }),
    ).toBeInTheDocument();
    expect(server.callsTo('POST /chat/admin-reply')[0]?.body).toEqual({
      chat_id: 'c-ben',
      message: 'On its way!',
    });
    expect(reply).toHaveValue('');
    await user.type(reply, 'Second');
    expect(sendButton()).toHaveTextContent('Sending...');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(sendButton()).toHaveTextContent('Send');
    expect(sendButton()).toBeEnabled();

    // A failure unlocks at once and says so.
    server.handlers['POST /chat/admin-reply'] = () => jsonResponse({ message: 'boom' }, 500);
    await user.click(sendButton());
    expect(await screen.findByText('Failed to send reply')).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Send');
    expect(sendButton()).toBeEnabled();
    expect(reply).toHaveValue('Second');
  });

  it('deletes a conversation only after the confirmation', async () => {
    const server = fakeStaffServer();
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Guest/));
    await user.click(await within(panel()).findByRole('button', { name: 'Delete' }));

    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete this conversation?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.callsTo('DELETE /admin/chats/c-guest')).toHaveLength(0);

    await user.click(within(panel()).getByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Conversation deleted.')).toBeInTheDocument();
    // The CHAT's id is what the call takes (the first brief's client passed the user's id; docs/product.md, Departures from the first brief).
    expect(server.callsTo('DELETE /admin/chats/c-guest')).toHaveLength(1);
    await waitFor(() =>
      expect(within(chatList()).queryByRole('button', { name: /^Guest/ })).toBeNull(),
    );
    expect(within(panel()).getByText('Select a chat')).toBeInTheDocument();
  });

  it('says so when deleting fails', async () => {
    const server = fakeStaffServer();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.handlers['DELETE /admin/chats/c-guest'] = () => jsonResponse({ message: 'no' }, 500);
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Guest/));
    await user.click(await within(panel()).findByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete conversation.')).toBeInTheDocument();
    expect(chatButton(/^Guest/)).toBeInTheDocument();
  });

  it('closes on Escape and gives focus back to the Live Chats button', async () => {
    fakeStaffServer();
    const { user } = setup();
    await openPanel(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Live Chats' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Live Chats' })).toHaveFocus();
  });

  it('pages the list 50 at a time with Load more, and keeps polling every loaded page', async () => {
    const first = Array.from({ length: 50 }, (_, i) => staffChat(`c-${i}`));
    const second = [staffChat('c-50'), staffChat('c-51')];
    const server = stubApi({
      'GET /admin/chats': ({ query }) => {
        const before = query.get('before');
        if (before === null) return jsonResponse(first);
        if (before === 'cursor-c-49') return jsonResponse(second);
        return jsonResponse({ message: 'bad cursor' }, 422);
      },
    });
    const { user } = setup();
    await openPanel(user);
    expect(within(chatList()).getAllByRole('button')).toHaveLength(50);

    await user.click(within(panel()).getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(chatList()).getAllByRole('button')).toHaveLength(52));
    // a short page is the last one
    expect(within(panel()).queryByRole('button', { name: 'Load more' })).toBeNull();
    const asked = server.callsTo('GET /admin/chats').map((call) => call.query.get('before'));
    expect(asked).toEqual([null, 'cursor-c-49']);

    // the poll refreshes both pages, in order, without a third
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(server.callsTo('GET /admin/chats').length).toBe(4));
    expect(server.callsTo('GET /admin/chats').map((call) => call.query.get('before'))).toEqual([
      null,
      'cursor-c-49',
      null,
      'cursor-c-49',
    ]);
  });

  it('keeps a conversation the shopper ended open, says so, and keeps its messages', async () => {
    const server = fakeStaffServer();
    server.handlers['GET /admin/chats/c-ben'] = () => {
      const ben = server.chats.find((chat) => chat.id === 'c-ben');
      return ben
        ? jsonResponse({ ...ben, messages: server.messages['c-ben'] })
        : jsonResponse({ message: 'Chat not found.' }, 404);
    };
    const { user } = setup();
    await openPanel(user);
    await user.click(chatButton(/^Ben/));
    await within(panel()).findByText('Any news?', { selector: '.message__text' });

    // Ben ends the chat: it leaves the open list, and the server has it as closed.
    const ben = server.chats.find((chat) => chat.id === 'c-ben');
    if (!ben) throw new Error('no chat for Ben');
    ben.status = 'closed';
    server.handlers['GET /admin/chats'] = () =>
      jsonResponse(server.chats.filter((chat) => chat.status !== 'closed'));
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() =>
      expect(within(chatList()).queryByRole('button', { name: /^Ben/ })).toBeNull(),
    );

    expect(
      await within(panel()).findByText('Ben ended this chat. The conversation stays here to read.'),
    ).toHaveAttribute('role', 'status');
    expect(within(panel()).getByText('Any news?', { selector: '.message__text' })).toBeVisible();
    expect(within(panel()).getByRole('button', { name: 'Ended' })).toBeDisabled();
    expect(within(panel()).getByRole('textbox', { name: 'Reply to Ben' })).toBeDisabled();
    expect(within(panel()).queryByText('Select a chat')).toBeNull();
  });

  it('shows closed chats only on request', async () => {
    const open = [staffChat('c-open', { user: { id: 4, name: 'Ben' } })];
    const closed = staffChat('c-closed', {
      status: 'closed',
      user: { id: 5, name: 'Cara' },
      last_message: msg(9, 'Thanks, bye!', 'user'),
    });
    const server = stubApi({
      'GET /admin/chats': ({ query }) =>
        jsonResponse(query.get('status') === 'all' ? [...open, closed] : open),
      'GET /admin/chats/c-closed/messages': () => jsonResponse([msg(9, 'Thanks, bye!', 'user')]),
      'POST /admin/chats/c-closed/mark-read': () => jsonResponse({ message: 'ok' }),
    });
    const { user } = setup();
    await openPanel(user);
    expect(within(chatList()).queryByRole('button', { name: /^Cara/ })).toBeNull();
    expect(server.callsTo('GET /admin/chats')[0]?.query.get('status')).toBeNull();

    await user.click(within(panel()).getByRole('checkbox', { name: 'Show closed chats' }));
    const cara = await within(panel()).findByRole('button', { name: /^Cara/ });
    expect(within(cara).getByText('Closed')).toBeInTheDocument();
    expect(within(cara).queryByText('New')).toBeNull();
    expect(server.callsTo('GET /admin/chats').at(-1)?.query.get('status')).toBe('all');

    await user.click(cara);
    expect(await within(panel()).findByRole('button', { name: 'Ended' })).toBeDisabled();
    expect(within(panel()).queryByRole('button', { name: 'Join Chat' })).toBeNull();
  });
});
