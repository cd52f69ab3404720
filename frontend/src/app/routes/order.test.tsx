import { act, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useLiveEvents } from '@/app/layout/use-live-events';
import { OrderRoute } from '@/app/routes/order';
import { queryClientWithSession } from '@/features/auth/testing/fake-api';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import type { OrderDelivery, TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { queueText } from '@/features/checkout/utils/order-key';
import { connectLiveEvents, watchedOrder } from '@/lib/live-events';
import { stubApi, type StubCall } from '@/testing/api-stub';
import { makeDeliverySteps, makeOrderSteps } from '@/testing/factories';
import { FakeEventSource, lastStream } from '@/testing/fake-event-source';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { Site } from '@/types/api';

const INVITE = 'https://discord.gg/gardenshop';
const SERVER = 'https://www.roblox.com/share?code=abc&type=Server';
const TICKET = 'https://discord.com/channels/1/2';

function delivery(overrides: Partial<OrderDelivery> = {}): OrderDelivery {
  return {
    staff_name: null,
    private_server_url: null,
    claimed_at: null,
    buyer_ready_at: null,
    received_at: null,
    ticket_url: null,
    ticket_problem: null,
    proof_picture: null,
    released: null,
    no_show: false,
    ...overrides,
  };
}

function tracked(
  overrides: Partial<TrackedOrder> = {},
  handoff: Partial<OrderDelivery> = {},
): TrackedOrder {
  return {
    id: 42,
    status: 'paid',
    status_label: 'Paid',
    language: 'en',
    awaiting_payment: false,
    pay_by: null,
    items: [{ id: 1, name: 'Golden Owl', qty: 2, unit_price: 10, unit_price_paid: 10 }],
    subtotal: 20,
    discount: 0,
    fee: 1.2,
    total: 21.2,
    currency: 'USD',
    amount_paid: 21.2,
    rate: '1',
    roblox_username: 'Builder_Bob',
    created_at: '2026-11-21T10:00:00Z',
    paid_at: '2026-11-21T10:01:00Z',
    delivered_at: null,
    timeline: [{ status: 'paid', at: '2026-11-21T10:01:00Z' }],
    queue_position: 4,
    over_promise: false,
    join_by: null,
    being_checked: false,
    estimate_minutes: 20,
    delivery: delivery(handoff),
    steps: makeOrderSteps(INVITE),
    ...overrides,
  };
}

/** Claimed by Ann, with her private server and the order's ticket. */
const claimed = (handoff: Partial<OrderDelivery> = {}, joinBy: string | null = null) =>
  tracked(
    {
      queue_position: null,
      join_by: joinBy,
      timeline: [
        { status: 'paid', at: '2026-11-21T10:01:00Z' },
        { status: 'claimed', at: '2026-11-21T10:05:00Z' },
      ],
    },
    {
      staff_name: 'Ann',
      private_server_url: SERVER,
      claimed_at: '2026-11-21T10:05:00Z',
      ticket_url: TICKET,
      ...handoff,
    },
  );

function site(discordInviteUrl: string | null = INVITE): Site {
  return {
    name: 'Garden Shop',
    reviews_url: '',
    paypal_enabled: false,
    discord_invite_url: discordInviteUrl,
    delivery_minutes: 10,
    evidence_retention_days: 120,
    delivery_steps: makeDeliverySteps(discordInviteUrl),
    languages: ['en', 'es', 'pt-BR', 'fr', 'de'],
    currencies: [
      { code: 'USD', rate: '1', as_of: null, minor_units: 2, rounding: 'minor', methods: ['card'] },
    ],
  };
}

type Handler = (call: StubCall) => Response | Promise<Response>;

/** The order page at `url`, its order answered by `order` (a function: a new answer each time). */
function renderOrder(
  url: string,
  order: TrackedOrder | (() => TrackedOrder),
  more: Record<string, Handler> = {},
  invite: string | null = INVITE,
) {
  const api = stubApi({
    'GET /orders/42': () => jsonResponse(typeof order === 'function' ? order() : order),
    'GET /site': () => jsonResponse(site(invite)),
    ...more,
  });
  const rendered = renderWithProviders(<OrderRoute />, {
    url,
    path: '/orders/:id',
    queryClient: queryClientWithSession(null),
  });
  return { ...rendered, api };
}

const stepTexts = () =>
  within(screen.getByRole('list', { name: 'Order progress' }))
    .getAllByRole('listitem')
    .map((step) => step.textContent);

const currentStep = () =>
  within(screen.getByRole('list', { name: 'Order progress' }))
    .getAllByRole('listitem')
    .find((step) => step.getAttribute('aria-current') === 'step');

describe('/orders/:id: the steps', () => {
  it('opens with the key of the link: paid and in the queue, items, total, Roblox name', async () => {
    const { api } = renderOrder('/orders/42?key=abc123', tracked());
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #42' })).toBeVisible();
    expect(api.callsTo('GET /orders/42')[0]?.query.get('key')).toBe('abc123');
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Paid');
    expect(stepTexts()).toEqual([
      expect.stringMatching(/^Paid.*\d/),
      'In the queueNow3 orders before yours in the delivery queue',
      'Staff on the wayNot yet',
      'DeliveredNot yet',
    ]);
    expect(currentStep()).toHaveTextContent(/^In the queue/);
    expect(screen.getByTestId('queue-position')).toHaveTextContent(
      '3 orders before yours in the delivery queue',
    );
    const handoff = screen.getByRole('region', { name: 'Waiting for staff' });
    expect(handoff).toHaveTextContent('delivery usually takes under 20 minutes');
    expect(screen.queryByRole('link', { name: /Join the private server/ })).toBeNull();
    expect(screen.getByText('2 × Golden Owl')).toBeVisible();
    expect(screen.getByText('$21.20')).toBeVisible();
    expect(screen.getByText('Builder_Bob')).toBeVisible();
  });

  it('numbers the order’s own script, ticks the steps it is past and marks where it is', async () => {
    renderOrder('/orders/42?key=abc123', claimed());
    await screen.findByRole('heading', { level: 1, name: 'Order #42' });
    const script = within(screen.getByRole('region', { name: 'Your steps' }));
    const items = script.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-step'))).toEqual([
      'discord',
      'wait',
      'join',
      'ready',
      'receive',
      'review',
    ]);
    expect(script.getByRole('link', { name: /Join our Discord server/ })).toHaveAttribute(
      'href',
      INVITE,
    );
    expect(items.map((item) => item.getAttribute('data-state'))).toEqual([
      'current',
      'todo',
      'todo',
      'todo',
      'todo',
      'todo',
    ]);
  });

  it('marks the steps the server says are done, and the first one left as now', async () => {
    renderOrder(
      '/orders/42?key=abc123',
      tracked({ steps: makeOrderSteps(INVITE, ['discord', 'wait']) }),
    );
    const script = within(await screen.findByRole('region', { name: 'Your steps' }));
    const items = script.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-state'))).toEqual([
      'done',
      'done',
      'current',
      'todo',
      'todo',
      'todo',
    ]);
    expect(items[2]).toHaveAttribute('aria-current', 'step');
    expect(items[2]).toHaveTextContent('3. Join their private serverNow');
    expect(items[0]).toHaveTextContent('Done');
    expect(items[0]).not.toHaveTextContent('Use the Discord account');
  });

  it('shows who is on the way, the private server as a big link and the ticket', async () => {
    renderOrder('/orders/42?key=abc123', claimed());
    const handoff = await screen.findByRole('region', { name: 'Ann is on the way' });
    expect(stepTexts()).toEqual([
      expect.stringMatching(/^Paid/),
      'In the queueDone',
      expect.stringMatching(/^Staff on the way\w{3} \d+, \d{4}.*Ann has your order$/),
      'DeliveredNot yet',
    ]);
    expect(currentStep()).toHaveTextContent(/^Staff on the way/);
    expect(screen.queryByTestId('queue-position')).toBeNull();
    const join = within(handoff).getByRole('link', { name: /^Join the private server/ });
    expect(join).toHaveAttribute('href', SERVER);
    expect(join).toHaveAttribute('target', '_blank');
    expect(join).toHaveClass('btn', 'btn--lg');
    expect(
      within(handoff).getByRole('link', { name: /^Open your Discord ticket/ }),
    ).toHaveAttribute('href', TICKET);
    expect(handoff).toHaveTextContent('Builder_Bob');
  });

  it('leaves the ticket link out when there is none', async () => {
    renderOrder('/orders/42?key=k', claimed({ ticket_url: null }));
    await screen.findByRole('region', { name: 'Ann is on the way' });
    expect(screen.queryByRole('link', { name: /Discord ticket/ })).toBeNull();
  });

  it('a released order is back in the queue, without the server link', async () => {
    renderOrder(
      '/orders/42?key=k',
      tracked({
        queue_position: 1,
        timeline: [
          { status: 'paid', at: '2026-11-21T10:01:00Z' },
          { status: 'claimed', at: '2026-11-21T10:05:00Z' },
        ],
      }),
    );
    expect(await screen.findByRole('region', { name: 'Waiting for staff' })).toBeVisible();
    expect(currentStep()).toHaveTextContent('In the queueNowYours is next in line');
    expect(screen.queryByRole('link', { name: /private server/ })).toBeNull();
  });

  it('delivered: every step done with its time, who delivered, the proofs and the review form', async () => {
    renderOrder(
      '/orders/42?key=k',
      tracked(
        {
          status: 'delivered',
          status_label: 'Delivered',
          queue_position: null,
          delivered_at: '2026-11-21T10:12:00Z',
          timeline: [
            { status: 'paid', at: '2026-11-21T10:01:00Z' },
            { status: 'claimed', at: '2026-11-21T10:05:00Z' },
            { status: 'delivered', at: '2026-11-21T10:12:00Z' },
          ],
        },
        { staff_name: 'Ann', claimed_at: '2026-11-21T10:05:00Z' },
      ),
    );
    expect(await screen.findByTestId('order-page-status')).toHaveTextContent('Delivered');
    expect(stepTexts()).toEqual([
      expect.stringMatching(/^Paid.*\d/),
      'In the queueDone',
      expect.stringMatching(/^Staff on the way\w{3} \d+, \d{4}/),
      expect.stringMatching(/^Delivered\w{3} \d+, \d{4}/),
    ]);
    expect(screen.getByTestId('delivered')).toHaveTextContent(/^Delivered by Ann on .*\d/);
    expect(screen.getByRole('link', { name: 'proofs of delivery' })).toHaveAttribute(
      'href',
      '/proofs',
    );
    expect(screen.getByRole('region', { name: 'How did we do?' })).toBeVisible();
    expect(screen.queryByRole('button', { name: /I'm in the game/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /private server/ })).toBeNull();
    expect(screen.queryByRole('img', { name: /Proof of delivery/ })).toBeNull();
  });

  it('delivered with a proof: its picture is on the page', async () => {
    renderOrder(
      '/orders/42?key=k',
      tracked(
        {
          status: 'delivered',
          status_label: 'Delivered',
          queue_position: null,
          delivered_at: '2026-11-21T10:12:00Z',
        },
        { staff_name: 'Ann', proof_picture: '/media/proofs/abc.png' },
      ),
    );
    const picture = await screen.findByRole('img', { name: 'Proof of delivery of order #42' });
    expect(picture).toHaveAttribute('src', '/media/proofs/abc.png');
    expect(screen.getByTestId('delivered')).toHaveTextContent(/The picture staff took/);
  });

  it('while the payment is checked: a short honest line instead of a place in the queue', async () => {
    renderOrder(
      '/orders/42?key=k',
      tracked(
        { queue_position: null, being_checked: true },
        // a claim made before the check: nobody is on the way now
        { staff_name: null, claimed_at: null, ticket_url: TICKET },
      ),
    );
    expect(await screen.findByTestId('being-checked')).toHaveTextContent(
      "We're checking this payment before delivery. You don't need to do anything; we'll mail you if we need something.",
    );
    expect(currentStep()).toHaveTextContent(/^Checking the payment/);
    expect(screen.queryByTestId('queue-position')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Waiting for staff' })).toBeNull();
    expect(screen.queryByRole('button', { name: /I'm in the game/ })).toBeNull();
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Paid');
    expect(document.body).not.toHaveTextContent(/fraud|risk/i);
    // questions still go to the order's ticket
    expect(screen.getByRole('link', { name: /your Discord ticket/ })).toHaveAttribute(
      'href',
      TICKET,
    );
  });

  it('a refunded order ends its way', async () => {
    renderOrder(
      '/orders/42?key=k',
      tracked({
        status: 'refunded',
        status_label: 'Refunded',
        queue_position: null,
        timeline: [
          { status: 'paid', at: '2026-11-21T10:01:00Z' },
          { status: 'refunded', at: '2026-11-21T12:00:00Z' },
        ],
      }),
    );
    expect(await screen.findByTestId('order-page-status')).toHaveTextContent('Refunded');
    expect(screen.queryByTestId('queue-position')).toBeNull();
    expect(stepTexts()).toHaveLength(2);
    expect(currentStep()).toHaveTextContent(/^Refunded/);
    expect(screen.queryByRole('button', { name: /I'm in the game/ })).toBeNull();
  });

  it('says the link does not open an order on a 404', async () => {
    stubApi({});
    renderWithProviders(<OrderRoute />, {
      url: '/orders/42?key=wrong',
      path: '/orders/:id',
      queryClient: queryClientWithSession(null),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('full link from your receipt');
  });

  it('words the place in the queue', () => {
    const t = i18next.getFixedT('en', 'pages');
    expect(queueText(t, 1)).toBe('Yours is next in line');
    expect(queueText(t, 2)).toBe('1 order before yours');
    expect(queueText(t, 4)).toBe('3 orders before yours');
    const de = i18next.getFixedT('de', 'pages');
    expect(queueText(de, 4)).toBe('3 Bestellungen vor deiner');
  });
});

/** Delivered by Ann; `received_at` when the buyer said they got their items. */
const delivered = (received_at: string | null = null) =>
  tracked(
    {
      status: 'delivered',
      status_label: 'Delivered',
      queue_position: null,
      delivered_at: '2026-11-21T10:12:00Z',
    },
    { staff_name: 'Ann', claimed_at: '2026-11-21T10:05:00Z', received_at },
  );

describe('/orders/:id: I got my items', () => {
  it('is offered after the delivery, sends the key, then says when the buyer confirmed', async () => {
    const { api, user } = renderOrder('/orders/42?key=abc123', delivered(), {
      'POST /orders/42/received': () => jsonResponse(delivered('2026-11-21T10:20:00Z')),
    });
    await user.click(await screen.findByRole('button', { name: 'I got my items' }));
    const said = await screen.findByText(/You confirmed you got your items on/);
    expect(api.callsTo('POST /orders/42/received')).toHaveLength(1);
    expect(api.callsTo('POST /orders/42/received')[0]?.query.get('key')).toBe('abc123');
    expect(said.querySelector('time')).toHaveAttribute('dateTime', '2026-11-21T10:20:00Z');
    expect(screen.queryByRole('button', { name: 'I got my items' })).toBeNull();
  });

  it('is not offered before the delivery nor once said', async () => {
    renderOrder('/orders/42?key=k', claimed());
    expect(await screen.findByRole('button', { name: "I'm in the game" })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'I got my items' })).toBeNull();
  });

  it('shows the server’s message on a 409 and then the order as it is', async () => {
    let answer = delivered();
    const { user } = renderOrder('/orders/42?key=k', () => answer, {
      'POST /orders/42/received': () => {
        answer = delivered('2026-11-21T10:20:00Z');
        return jsonResponse(
          { message: 'You already told us you got your items.', errors: {} },
          409,
        );
      },
    });
    await user.click(await screen.findByRole('button', { name: 'I got my items' }));
    expect(await screen.findByText(/You confirmed you got your items on/)).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('You already told us you got your items.');
  });
});

describe('/orders/:id: I’m in the game', () => {
  it('tells staff, with the key of the link, then says they know and since when', async () => {
    const ready = claimed({ buyer_ready_at: '2026-11-21T10:07:00Z' });
    const { api, user } = renderOrder('/orders/42?key=abc123', claimed(), {
      'POST /orders/42/ready': () => jsonResponse(ready),
    });
    await user.click(await screen.findByRole('button', { name: "I'm in the game" }));
    const said = await screen.findByText(/Staff know you are in the game/);
    expect(api.callsTo('POST /orders/42/ready')).toHaveLength(1);
    expect(api.callsTo('POST /orders/42/ready')[0]?.query.get('key')).toBe('abc123');
    expect(said.querySelector('time')).toHaveAttribute('dateTime', '2026-11-21T10:07:00Z');
    expect(screen.queryByRole('button', { name: "I'm in the game" })).toBeNull();
  });

  it('is offered once claimed, and sends no key when the page had none', async () => {
    const { api, user } = renderOrder('/orders/42', claimed(), {
      'POST /orders/42/ready': () =>
        jsonResponse(claimed({ buyer_ready_at: '2026-11-21T10:02:00Z' })),
    });
    await user.click(await screen.findByRole('button', { name: "I'm in the game" }));
    expect(await screen.findByText(/Staff know you are in the game/)).toBeVisible();
    expect(api.callsTo('POST /orders/42/ready')[0]?.query.has('key')).toBe(false);
  });

  it('is not offered while the order waits for a claim: there is no server to be in yet', async () => {
    renderOrder('/orders/42', tracked());
    expect(await screen.findByTestId('queue-position')).toBeVisible();
    expect(screen.queryByRole('button', { name: "I'm in the game" })).toBeNull();
  });

  it('says so when the order runs past the promise, with its place in line', async () => {
    renderOrder('/orders/42', tracked({ over_promise: true, queue_position: 3 }));
    expect(await screen.findByTestId('over-promise')).toHaveTextContent(
      'This is taking longer than usual',
    );
    expect(screen.getByTestId('over-promise')).toHaveTextContent('You are number 3 in line');
    expect(screen.getByTestId('queue-position')).toHaveTextContent(
      'Taking longer than usual: you are number 3 in line',
    );
  });

  it('tells the buyer who let the order go and why, with its place in line', async () => {
    renderOrder(
      '/orders/42',
      tracked(
        { queue_position: 2 },
        {
          released: {
            at: '2026-11-21T10:09:00Z',
            staff_name: 'Ann',
            reason: 'My game crashed <b>again</b>.',
          },
        },
      ),
    );
    const note = await screen.findByTestId('released');
    expect(note).toHaveTextContent('Ann could not deliver it this time');
    expect(note).toHaveTextContent('My game crashed <b>again</b>.');
    expect(note).toHaveTextContent('you are number 2');
  });

  it('says the time to join is up once the server marked a no-show', async () => {
    const joinBy = new Date(Date.now() + 60 * 1000).toISOString();
    renderOrder('/orders/42', claimed({ no_show: true }, joinBy));
    expect(await screen.findByTestId('join-by')).toHaveTextContent('Your time to join is up');
  });

  it('counts down the time left to join after a claim', async () => {
    const joinBy = new Date(Date.now() + 9 * 60 * 1000 + 30 * 1000).toISOString();
    renderOrder('/orders/42', claimed({}, joinBy));
    expect(await screen.findByTestId('join-by')).toHaveTextContent(/Join within 9:(29|30)/);
  });

  it('is not offered once said', async () => {
    renderOrder('/orders/42?key=k', claimed({ buyer_ready_at: '2026-11-21T10:07:00Z' }));
    expect(await screen.findByText(/Staff know you are in the game/)).toBeVisible();
    expect(screen.queryByRole('button', { name: "I'm in the game" })).toBeNull();
  });

  it.each([
    [409, 'You already told staff for this claim.'],
    [429, 'Too many tries: wait a few minutes and try again.'],
  ])('shows the server’s message on a %i', async (status, message) => {
    const { user } = renderOrder('/orders/42?key=k', claimed(), {
      'POST /orders/42/ready': () => jsonResponse({ message, errors: {} }, status),
    });
    await user.click(await screen.findByRole('button', { name: "I'm in the game" }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(/Staff know you are in the game/)).toBeNull();
  });

  it('after a 409 shows where the order really is', async () => {
    let answer = claimed();
    const { user } = renderOrder('/orders/42?key=k', () => answer, {
      'POST /orders/42/ready': () => {
        answer = claimed({ buyer_ready_at: '2026-11-21T10:07:00Z' });
        return jsonResponse({ message: 'You already told staff.', errors: {} }, 409);
      },
    });
    await user.click(await screen.findByRole('button', { name: "I'm in the game" }));
    expect(await screen.findByText(/Staff know you are in the game/)).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('You already told staff.');
  });
});

describe('/orders/:id: a problem with the Discord ticket', () => {
  const PROBLEM = 'Ticket not opened: the buyer is not in the Discord server.';

  it('says why, links the invite and adds the buyer when they joined', async () => {
    const { api, user } = renderOrder(
      '/orders/42?key=abc123',
      claimed({ ticket_url: null, ticket_problem: PROBLEM }),
      { 'POST /orders/42/ticket/join': () => jsonResponse(claimed()) },
    );
    const block = await screen.findByRole('region', { name: 'Your Discord ticket' });
    expect(within(block).getByTestId('ticket-problem')).toHaveTextContent(PROBLEM);
    expect(await within(block).findByRole('link', { name: /^our Discord server/ })).toHaveAttribute(
      'href',
      INVITE,
    );
    await user.click(within(block).getByRole('button', { name: 'I joined, add me to my ticket' }));
    expect(await screen.findByText('You are in your Discord ticket.')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Your Discord ticket' })).toBeNull();
    expect(api.callsTo('POST /orders/42/ticket/join')[0]?.query.get('key')).toBe('abc123');
  });

  it('shows the server’s message when adding fails', async () => {
    const { user } = renderOrder('/orders/42?key=k', tracked({}, { ticket_problem: PROBLEM }), {
      'POST /orders/42/ticket/join': () =>
        jsonResponse({ message: 'You are not in the Discord server yet.', errors: {} }, 409),
    });
    const block = await screen.findByRole('region', { name: 'Your Discord ticket' });
    await within(block).findByRole('link', { name: /^our Discord server/ });
    await user.click(within(block).getByRole('button', { name: 'I joined, add me to my ticket' }));
    expect(await within(block).findByRole('alert')).toHaveTextContent(
      'You are not in the Discord server yet.',
    );
  });

  it('without an invite, points to the help chat instead of a server nobody can join', async () => {
    useChatWidgetStore.setState({ isOpen: false });
    const { user, queryClient } = renderOrder(
      '/orders/42?key=k',
      tracked({}, { ticket_problem: PROBLEM }),
      {},
      null,
    );
    const block = await screen.findByRole('region', { name: 'Your Discord ticket' });
    await waitFor(() => expect(queryClient.getQueryState(['site'])?.status).toBe('success'));
    expect(within(block).queryByRole('button', { name: /I joined/ })).toBeNull();
    expect(within(block).queryByRole('link', { name: /Discord server/ })).toBeNull();
    await user.click(within(block).getByRole('button', { name: 'Ask us in the help chat' }));
    expect(useChatWidgetStore.getState().isOpen).toBe(true);
  });

  it('is not shown without a problem', async () => {
    renderOrder('/orders/42?key=k', claimed());
    await screen.findByRole('region', { name: 'Ann is on the way' });
    expect(screen.queryByRole('region', { name: 'Your Discord ticket' })).toBeNull();
  });
});

describe('/orders/:id: questions', () => {
  it('links the ticket, else the invite, else opens the help chat', async () => {
    renderOrder('/orders/42?key=k', claimed());
    await screen.findByRole('region', { name: 'Ann is on the way' });
    expect(screen.getByText(/Questions about this order/)).toContainElement(
      screen.getByRole('link', { name: /^your Discord ticket/ }),
    );
  });

  it('opens the help chat when there is neither ticket nor invite', async () => {
    useChatWidgetStore.setState({ isOpen: false });
    const { user, queryClient } = renderOrder(
      '/orders/42?key=k',
      tracked({ steps: makeOrderSteps(null) }),
      {},
      null,
    );
    await screen.findByRole('region', { name: 'Waiting for staff' });
    await waitFor(() => expect(queryClient.getQueryState(['site'])?.status).toBe('success'));
    expect(screen.queryByRole('link', { name: /Discord/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Ask us in the help chat' }));
    expect(useChatWidgetStore.getState().isOpen).toBe(true);
  });
});

/** The layout's stream, as the app mounts it, beside the page. */
function WithLiveEvents() {
  useLiveEvents();
  return <OrderRoute />;
}

describe('/orders/:id: live from any device', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('puts the link on the app’s stream; an order event shows the claim at once', async () => {
    let answer = tracked();
    const api = stubApi({
      'GET /orders/42': () => jsonResponse(answer),
      'GET /site': () => jsonResponse(site()),
    });
    const { unmount } = renderWithProviders(<WithLiveEvents />, {
      url: '/orders/42?key=abc123',
      path: '/orders/:id',
      queryClient: queryClientWithSession(null),
    });
    await screen.findByRole('region', { name: 'Waiting for staff' });
    await waitFor(() => expect(lastStream().query.get('key')).toBe('abc123'));
    const stream = lastStream();
    expect(stream.query.get('order')).toBe('42');
    act(() => stream.emit('ready', { resumed: false }, '7'));
    await waitFor(() => expect(api.callsTo('GET /orders/42').length).toBeGreaterThan(1));

    answer = claimed();
    act(() => stream.emit('order', { order_id: 42, status: 'paid', step: 'claimed' }, '8'));
    expect(await screen.findByRole('region', { name: 'Ann is on the way' })).toBeVisible();
    expect(screen.getByRole('link', { name: /^Join the private server/ })).toHaveAttribute(
      'href',
      SERVER,
    );
    unmount();
    expect(watchedOrder()).toBeNull();
  });

  it('puts no order on the stream without a key (the session’s stream carries it)', async () => {
    stubApi({
      'GET /orders/42': () => jsonResponse(tracked()),
      'GET /site': () => jsonResponse(site()),
    });
    renderWithProviders(<WithLiveEvents />, {
      url: '/orders/42',
      path: '/orders/:id',
      queryClient: queryClientWithSession(null),
    });
    await screen.findByRole('region', { name: 'Waiting for staff' });
    expect(watchedOrder()).toBeNull();
    expect(FakeEventSource.opened.every((stream) => !stream.query.has('order'))).toBe(true);
  });

  it('polls every 15 s only while the stream is down', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = stubApi({
      'GET /orders/42': () => jsonResponse(tracked()),
      'GET /site': () => jsonResponse(site()),
    });
    const queryClient = queryClientWithSession(null);
    const close = connectLiveEvents({ queryClient, staff: false, chatSession: null });
    const stream = lastStream();
    act(() => stream.emit('ready', { resumed: false }));
    renderWithProviders(<OrderRoute />, {
      url: '/orders/42?key=k',
      path: '/orders/:id',
      queryClient,
    });
    await screen.findByRole('region', { name: 'Waiting for staff' });
    const gets = () => api.callsTo('GET /orders/42').length;
    const before = gets();
    await act(() => vi.advanceTimersByTimeAsync(46_000));
    expect(gets()).toBe(before);

    // the stream drops: the page catches up at once, then polls every 15 s
    act(() => stream.onerror?.());
    await act(() => vi.advanceTimersByTimeAsync(100));
    const dropped = gets();
    expect(dropped).toBe(before + 1);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(gets()).toBe(dropped + 1);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(gets()).toBe(dropped + 2);
    close();
  });
});
