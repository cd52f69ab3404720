import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { OrderMessagesPanel } from '@/features/order-messages/components/order-messages-panel';
import { StaffOrderMessages } from '@/features/order-messages/components/staff-order-messages';
import type { OrderMessage } from '@/features/order-messages/types';
import { connectLiveEvents } from '@/lib/live-events';
import { stubApi } from '@/testing/api-stub';
import { FakeEventSource, lastStream } from '@/testing/fake-event-source';
import { createTestQueryClient, jsonResponse, renderWithProviders } from '@/testing/test-utils';

function message(overrides: Partial<OrderMessage> = {}): OrderMessage {
  return {
    id: 1,
    from: 'buyer',
    author: 'Builder_Bob',
    text: 'Hello?',
    created_at: '2026-11-30T12:00:00Z',
    ...overrides,
  };
}

function thread(): HTMLElement {
  return screen.getByRole('list', { name: 'Messages with staff' });
}

describe('OrderMessagesPanel: the buyer’s line to staff', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the thread and sends a typed message with the link’s key', async () => {
    const api = stubApi({
      'GET /orders/42/messages': () =>
        jsonResponse([message(), message({ id: 2, from: 'staff', author: 'Ann', text: 'Hi!' })]),
      'POST /orders/42/messages': ({ body }) =>
        jsonResponse(message({ id: 3, text: (body as { text: string }).text }), 201),
    });
    const { user } = renderWithProviders(
      <OrderMessagesPanel orderId={42} orderKey="k3y" open claimed={false} />,
    );
    await screen.findByText('Hi!');
    expect(within(thread()).getByText('Ann (staff)')).toBeVisible();
    expect(screen.queryByRole('button', { name: "I can't join the server" })).toBeNull();

    const box = screen.getByRole('textbox', { name: 'Message to staff' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, '  Where are you?  ');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(thread()).findByText('Where are you?')).toBeVisible();
    const [sent] = api.callsTo('POST /orders/42/messages');
    expect(sent?.body).toEqual({ text: 'Where are you?' });
    expect(sent?.query.get('key')).toBe('k3y');
    await waitFor(() => expect(box).toHaveValue(''));
  });

  it('offers "I can’t join the server" while the order is claimed, in one tap', async () => {
    const api = stubApi({
      'GET /orders/42/messages': () => jsonResponse([]),
      'POST /orders/42/messages': ({ body }) =>
        jsonResponse(message({ id: 9, text: (body as { text: string }).text }), 201),
    });
    const { user } = renderWithProviders(
      <OrderMessagesPanel orderId={42} orderKey={null} open claimed />,
    );
    expect(await screen.findByText('No messages yet.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: "I can't join the server" }));
    expect(await within(thread()).findByText("I can't join the server")).toBeVisible();
    expect(api.callsTo('POST /orders/42/messages')[0]?.body).toEqual({
      text: "I can't join the server",
    });
    expect(api.callsTo('POST /orders/42/messages')[0]?.query.has('key')).toBe(false);
  });

  it('adds a message heard on the event stream without asking again', async () => {
    const api = stubApi({ 'GET /orders/42/messages': () => jsonResponse([message()]) });
    const queryClient = createTestQueryClient();
    const close = connectLiveEvents({ queryClient, staff: false, chatSession: null });
    const stream = lastStream();
    act(() => stream.emit('ready', { resumed: false }, '1'));
    renderWithProviders(<OrderMessagesPanel orderId={42} orderKey={null} open claimed />, {
      queryClient,
    });
    await screen.findByText('Hello?');
    const asked = api.callsTo('GET /orders/42/messages').length;
    const answer = message({ id: 2, from: 'staff', author: 'Ann', text: 'Try again now <b>' });
    act(() => stream.emit('order_message', { order_id: 42, message: answer }, '2'));
    expect(await screen.findByText('Try again now <b>')).toBeVisible();
    // another order's message, and the same message twice, change nothing
    act(() => stream.emit('order_message', { order_id: 7, message: message({ id: 5 }) }, '3'));
    act(() => stream.emit('order_message', { order_id: 42, message: answer }, '4'));
    expect(within(thread()).getAllByTestId('order-message')).toHaveLength(2);
    expect(api.callsTo('GET /orders/42/messages')).toHaveLength(asked);
    close();
  });

  it('says why a message was refused, keeping what was typed', async () => {
    stubApi({
      'GET /orders/42/messages': () => jsonResponse([]),
      'POST /orders/42/messages': () =>
        jsonResponse(
          {
            message:
              'Messages about an order close 7 days after its delivery. Ask us in the help chat.',
            errors: {},
          },
          409,
        ),
    });
    const { user } = renderWithProviders(
      <OrderMessagesPanel orderId={42} orderKey={null} open claimed={false} />,
    );
    const box = await screen.findByRole('textbox', { name: 'Message to staff' });
    await user.type(box, 'Thanks');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('close 7 days after its delivery');
    expect(box).toHaveValue('Thanks');
  });

  it('refuses more than 1,000 characters before sending', async () => {
    const api = stubApi({ 'GET /orders/42/messages': () => jsonResponse([]) });
    const { user } = renderWithProviders(
      <OrderMessagesPanel orderId={42} orderKey={null} open claimed={false} />,
    );
    const box = await screen.findByRole('textbox', { name: 'Message to staff' });
    await user.click(box);
    await user.paste('a'.repeat(1001));
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByText('A message is at most 1000 characters.')).toBeVisible();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /orders/42/messages')).toHaveLength(0);
  });

  it('shows nothing for a closed order without messages, and a closed thread read-only', async () => {
    stubApi({ 'GET /orders/42/messages': () => jsonResponse([message()]) });
    renderWithProviders(
      <OrderMessagesPanel orderId={42} orderKey={null} open={false} claimed={false} />,
    );
    expect(await screen.findByText('Hello?')).toBeVisible();
    expect(screen.getByText('Messages about this order are closed.')).toBeVisible();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});

describe('StaffOrderMessages: the thread on a queue card', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is collapsed with its count, and expands to the thread and a reply box', async () => {
    const api = stubApi({
      'GET /admin/orders/42/messages': () =>
        jsonResponse([message(), message({ id: 2, text: "I can't join the server" })]),
      'POST /admin/orders/42/messages': ({ body }) =>
        jsonResponse(
          message({ id: 3, from: 'staff', author: 'Ann', text: (body as { text: string }).text }),
          201,
        ),
    });
    const { user } = renderWithProviders(<StaffOrderMessages orderId={42} open />);
    const toggle = await screen.findByRole('button', { name: /Messages \(2\)/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveTextContent('Buyer wrote');
    expect(screen.queryByRole('textbox', { name: 'Reply to the buyer' })).toBeNull();

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('list', { name: 'Messages of order #42' });
    expect(within(list).getByText("I can't join the server")).toBeVisible();
    await user.type(screen.getByRole('textbox', { name: 'Reply to the buyer' }), 'New link sent');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(list).findByText('New link sent')).toBeVisible();
    expect(within(list).getByText('Ann (staff)')).toBeVisible();
    expect(api.callsTo('POST /admin/orders/42/messages')[0]?.body).toEqual({
      text: 'New link sent',
    });
    expect(screen.getByRole('button', { name: /Messages \(3\)/ })).not.toHaveTextContent(
      'Buyer wrote',
    );
  });
});
