import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { AdminOrder } from '@/features/admin-orders/types';
import { stubApi } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

import { OrdersQueue } from './orders-queue';

const ME = 7;

function makeOrder(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: 41,
    status: 'paid',
    status_label: 'Paid',
    items: [{ name: 'Raccoon', qty: 1 }],
    total: 12.5,
    currency: 'USD',
    amount_paid: 12.5,
    roblox_username: 'GardenKid',
    roblox_avatar_url: '/media/avatars/gardenkid.png',
    discord_username: 'kid#0001',
    discord_id: '123',
    email: 'kid@example.com',
    created_at: '2026-11-26T10:00:00Z',
    paid_at: '2026-11-26T10:01:00Z',
    delivered_at: null,
    minutes_waiting: 12,
    claimed_by: null,
    proof_id: null,
    claimed_at: null,
    buyer_ready_at: null,
    ready_minutes: null,
    no_show: false,
    queue_position: null,
    over_promise: false,
    ticket_url: null,
    ticket_problem: null,
    hold: null,
    ...overrides,
  };
}

const claimedByMe = {
  claimed_by: { id: ME, name: 'Ann' },
  claimed_at: '2026-11-26T10:05:00Z',
} as const;

function renderQueue(orders: AdminOrder[], onNeedsPrivateServer = vi.fn()) {
  return renderWithProviders(
    <OrdersQueue orders={orders} currentUserId={ME} onNeedsPrivateServer={onNeedsPrivateServer} />,
  );
}

const card = (id: number) => screen.getByRole('listitem', { name: `Order #${id}` });

describe('the delivery queue', () => {
  it('keeps the order the server sent: buyers ready in game first, with how long they wait', () => {
    stubApi({});
    renderQueue([
      // Paid last, but ready in game: the server puts it first.
      makeOrder({
        id: 43,
        paid_at: '2026-11-26T10:30:00Z',
        minutes_waiting: 3,
        ...claimedByMe,
        buyer_ready_at: '2026-11-26T10:29:00Z',
        ready_minutes: 65,
      }),
      makeOrder({ id: 42, paid_at: '2026-11-26T10:20:00Z', ready_minutes: 2 }),
      makeOrder({ id: 41 }),
    ]);
    const cards = within(screen.getByRole('list', { name: 'Orders' })).getAllByRole('listitem', {
      name: /^Order #/,
    });
    expect(
      cards.map((item) => within(item).getByRole('heading', { level: 2 }).textContent),
    ).toEqual(['Order #43', 'Order #42', 'Order #41']);
    expect(card(43)).toHaveTextContent('Ready in game for 1 h 5 min');
    // Not ready: no buyer_ready_at, whatever else the answer holds.
    expect(card(42)).not.toHaveTextContent('Ready in game');
    expect(card(41)).not.toHaveTextContent('Ready in game');
  });

  it("shows the buyer's Roblox avatar and name to recognise them in game, and who claimed it", () => {
    stubApi({});
    const { container } = renderQueue([makeOrder({ id: 41, claimed_by: { id: 9, name: 'Bob' } })]);
    expect(within(card(41)).getByText('GardenKid')).toHaveClass('order-card__roblox-name');
    expect(container.querySelector('img.order-card__avatar')).toHaveAttribute(
      'src',
      '/media/avatars/gardenkid.png',
    );
    expect(card(41)).toHaveTextContent('Bob is delivering this.');
  });

  it('shows what a buyer paid in another currency beside the dollars of record', () => {
    stubApi({});
    renderQueue([
      makeOrder({ id: 51 }),
      makeOrder({ id: 52, currency: 'BRL', amount_paid: 66.77, total: 12.5 }),
    ]);
    expect(card(51)).toHaveTextContent('$12.50');
    expect(card(51)).not.toHaveTextContent('R$');
    expect(card(52)).toHaveTextContent('R$66.77 ($12.50)');
  });

  it('says who delivered a delivered order, not that it is being delivered (issue 23)', () => {
    stubApi({});
    const done = { status: 'delivered', status_label: 'Delivered' } as const;
    renderQueue([
      makeOrder({ id: 41, ...done, ...claimedByMe, delivered_at: '2026-11-26T10:20:00Z' }),
      makeOrder({
        id: 42,
        ...done,
        claimed_by: { id: 9, name: 'Bob' },
        delivered_at: '2026-11-26T10:25:00Z',
      }),
      makeOrder({ id: 43, ...claimedByMe }),
    ]);
    expect(card(41)).toHaveTextContent('Delivered Nov 26, 2026');
    expect(card(41)).toHaveTextContent('by you, no proof linked.');
    expect(card(41)).not.toHaveTextContent('You are delivering');
    expect(card(42)).toHaveTextContent('by Bob');
    expect(card(42)).not.toHaveTextContent('is delivering');
    expect(card(43)).toHaveTextContent('You are delivering this order.');
  });

  it('marks a no-show with a badge and puts Release right beside it', async () => {
    const api = stubApi({
      'POST /admin/orders/41/release': () =>
        jsonResponse(makeOrder({ id: 41, claimed_by: null, no_show: false })),
    });
    const { user } = renderQueue([
      makeOrder({ id: 41, ...claimedByMe, no_show: true }),
      makeOrder({ id: 42, ...claimedByMe }),
    ]);
    const badge = within(card(41)).getByText('No show');
    const noShow = badge.closest('.order-card__no-show') as HTMLElement;
    expect(noShow).not.toBeNull();
    const releases = within(card(41)).getAllByRole('button', { name: 'Release' });
    expect(releases).toHaveLength(1);
    expect(noShow).toContainElement(releases[0] ?? null);
    expect(within(card(42)).queryByText('No show')).not.toBeInTheDocument();
    await user.click(releases[0] as HTMLElement);
    // Release asks first, and for the reason the buyer is shown
    const form = await screen.findByRole('form', { name: 'Release order' });
    await user.click(within(form).getByRole('button', { name: 'Release order' }));
    expect(
      await within(form).findByText('Tell the buyer why you are letting the order go.'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST /admin/orders/41/release')).toHaveLength(0);
    await user.type(within(form).getByLabelText(/Reason the buyer sees/), '  My game crashed. ');
    await user.click(within(form).getByRole('button', { name: 'Release order' }));
    expect(await screen.findByText('Order #41 is back in the queue.')).toBeInTheDocument();
    const calls = api.callsTo('POST /admin/orders/41/release');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ reason: 'My game crashed.' });
  });

  it("shows another member of staff's no-show without offering to release it", () => {
    stubApi({});
    renderQueue([makeOrder({ id: 41, claimed_by: { id: 9, name: 'Bob' }, no_show: true })]);
    expect(within(card(41)).getByText('No show')).toBeInTheDocument();
    expect(within(card(41)).queryByRole('button', { name: 'Release' })).not.toBeInTheDocument();
  });

  it('links the Discord ticket, or says why there is none', () => {
    stubApi({});
    const ticket = 'https://discord.com/channels/1/2';
    const problem = 'Ticket not opened: the buyer is not in the Discord server.';
    renderQueue([
      makeOrder({ id: 41, ticket_url: ticket }),
      makeOrder({ id: 42, ticket_problem: problem }),
      makeOrder({ id: 43 }),
    ]);
    expect(within(card(41)).getByRole('link', { name: 'Open ticket' })).toHaveAttribute(
      'href',
      ticket,
    );
    expect(card(41)).not.toHaveTextContent('Ticket not opened');
    expect(within(card(42)).getByText(problem)).toBeInTheDocument();
    expect(within(card(42)).queryByRole('link', { name: 'Open ticket' })).not.toBeInTheDocument();
    expect(within(card(43)).queryByRole('link', { name: 'Open ticket' })).not.toBeInTheDocument();
    expect(card(43)).not.toHaveTextContent('Ticket');
  });

  it('offers Mark delivered only on a claimed order', () => {
    stubApi({});
    renderQueue([makeOrder({ id: 41 }), makeOrder({ id: 42, ...claimedByMe })]);
    expect(within(card(41)).getByRole('button', { name: 'Claim' })).toBeEnabled();
    expect(
      within(card(41)).queryByRole('button', { name: 'Mark delivered' }),
    ).not.toBeInTheDocument();
    expect(within(card(42)).getByRole('button', { name: 'Mark delivered' })).toBeEnabled();
  });

  it('says "Claim this order first." when the claim was lost before delivering', async () => {
    stubApi({
      'GET /proofs': () => jsonResponse([]),
      'POST /admin/orders/42/deliver': () =>
        jsonResponse({ message: 'Claim this order first.', errors: {} }, 409),
    });
    const { user } = renderQueue([makeOrder({ id: 42, ...claimedByMe })]);
    await user.click(within(card(42)).getByRole('button', { name: 'Mark delivered' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order #42 delivered' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    expect(await screen.findByText('Claim this order first.')).toBeInTheDocument();
  });

  it('asks for a private server link when a claim is refused for want of one', async () => {
    const message = 'Set your private server link first: it is where you meet the buyer.';
    stubApi({
      'POST /admin/orders/41/claim': () => jsonResponse({ message, errors: {} }, 409),
      'POST /admin/orders/42/claim': () =>
        jsonResponse({ message: 'Already claimed by Bob.', errors: {} }, 409),
    });
    const onNeedsPrivateServer = vi.fn();
    const { user } = renderQueue(
      [makeOrder({ id: 41 }), makeOrder({ id: 42 })],
      onNeedsPrivateServer,
    );
    await user.click(within(card(42)).getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Already claimed by Bob.')).toBeInTheDocument();
    expect(onNeedsPrivateServer).not.toHaveBeenCalled();
    await user.click(within(card(41)).getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(onNeedsPrivateServer).toHaveBeenCalledExactlyOnceWith(message);
  });

  it("makes Claim the primary button and leaves a colleague's order without grey buttons", () => {
    stubApi({});
    renderQueue([makeOrder({ id: 41 }), makeOrder({ id: 42, claimed_by: { id: 9, name: 'Bob' } })]);
    expect(within(card(41)).getByRole('button', { name: 'Claim' })).toHaveClass('btn--primary');
    expect(card(42)).toHaveTextContent('Bob is delivering this.');
    expect(within(card(42)).queryAllByRole('button')).toEqual([]);
  });

  it('links the orders of the same buyer to each other', () => {
    stubApi({});
    renderQueue([
      makeOrder({ id: 41, discord_id: '500', roblox_username: 'Twice' }),
      makeOrder({ id: 42, discord_id: '600', roblox_username: 'Once' }),
      makeOrder({ id: 43, discord_id: '700', roblox_username: 'twice' }),
    ]);
    expect(card(41)).toHaveTextContent('2 orders from this buyer: #43');
    expect(within(card(41)).getByRole('link', { name: '#43' })).toHaveAttribute(
      'href',
      '#order-43',
    );
    expect(within(card(43)).getByRole('link', { name: '#41' })).toHaveAttribute(
      'href',
      '#order-41',
    );
    expect(card(43)).toHaveAttribute('id', 'order-43');
    expect(card(42)).not.toHaveTextContent('from this buyer');
  });

  it('shows when a delivered order was delivered and its proof, each picture a link', async () => {
    stubApi({
      'GET /proofs': () =>
        jsonResponse([
          {
            id: 3,
            items: '1 × Raccoon',
            images: ['/media/proofs/a.webp', '/media/proofs/b.webp'],
            created_at: '2026-11-26T10:19:00Z',
          },
        ]),
    });
    renderQueue([
      makeOrder({
        id: 41,
        status: 'delivered',
        status_label: 'Delivered',
        ...claimedByMe,
        delivered_at: '2026-11-26T10:20:00Z',
        proof_id: 3,
      }),
    ]);
    expect(card(41).querySelector('.order-card__delivered time')).toHaveAttribute(
      'datetime',
      '2026-11-26T10:20:00Z',
    );
    const pictures = await within(card(41)).findByRole('list', { name: 'Proof #3 pictures' });
    const links = within(pictures).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/media/proofs/a.webp',
      '/media/proofs/b.webp',
    ]);
    expect(within(links[0] as HTMLElement).getByRole('img')).toHaveAccessibleName(
      'Proof #3, picture 1',
    );
  });

  it('has a place under the actions for more of the order', () => {
    stubApi({});
    renderWithProviders(
      <OrdersQueue
        orders={[makeOrder({ id: 41 })]}
        currentUserId={ME}
        onNeedsPrivateServer={vi.fn()}
        renderExtra={(order) => <p>More about #{order.id}</p>}
      />,
    );
    const more = within(card(41)).getByText('More about #41');
    expect(more.parentElement).toHaveClass('order-card__more');
    const actions = card(41).querySelector('.order-card__actions') as HTMLElement;
    expect(actions.compareDocumentPosition(more) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('uploads the proof pictures from Mark delivered, then delivers with that proof', async () => {
    const api = stubApi({
      'GET /proofs': () => jsonResponse([]),
      'POST /proofs': () =>
        jsonResponse(
          {
            id: 9,
            items: '1 × Raccoon',
            images: ['/media/proofs/new.webp'],
            created_at: '2026-11-26T10:19:00Z',
          },
          201,
        ),
      'POST /admin/orders/42/deliver': () =>
        jsonResponse(
          makeOrder({ id: 42, status: 'delivered', status_label: 'Delivered', proof_id: 9 }),
        ),
    });
    const { user } = renderQueue([makeOrder({ id: 42, ...claimedByMe })]);
    await user.click(within(card(42)).getByRole('button', { name: 'Mark delivered' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order #42 delivered' });
    // nothing chosen: said before any upload is tried
    await user.click(within(dialog).getByRole('button', { name: 'Upload proof' }));
    expect(within(dialog).getByLabelText('Pictures')).toHaveAccessibleDescription(
      /Choose at least one picture/,
    );
    expect(api.callsTo('POST /proofs')).toHaveLength(0);
    expect(within(dialog).getByLabelText('Items delivered')).toHaveValue('1 × Raccoon');
    const picture = new File(['png'], 'trade.png', { type: 'image/png' });
    await user.upload(within(dialog).getByLabelText('Pictures'), picture);
    await user.click(within(dialog).getByRole('button', { name: 'Upload proof' }));
    const proof = within(dialog).getByRole('combobox', { name: /Proof of delivery/ });
    await waitFor(() => expect(proof).toHaveValue('9'));
    expect(proof).toHaveAccessibleDescription('Proof #9 is uploaded and chosen.');
    const sent = api.callsTo('POST /proofs')[0]?.body as FormData;
    expect(sent.get('items')).toBe('1 × Raccoon');
    expect((sent.getAll('images[]')[0] as File).name).toBe('trade.png');
    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    expect(await screen.findByText('Order #42 marked delivered.')).toBeInTheDocument();
    expect(api.callsTo('POST /admin/orders/42/deliver')[0]?.body).toEqual({ proof_id: 9 });
  });

  it("shows the server's word on pictures it refused, and delivers nothing", async () => {
    const api = stubApi({
      'GET /proofs': () => jsonResponse([]),
      'POST /proofs': () =>
        jsonResponse(
          { message: 'Check the form.', errors: { images: ['trade.png is not a picture.'] } },
          422,
        ),
    });
    const { user } = renderQueue([makeOrder({ id: 42, ...claimedByMe })]);
    await user.click(within(card(42)).getByRole('button', { name: 'Mark delivered' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order #42 delivered' });
    await user.upload(
      within(dialog).getByLabelText('Pictures'),
      new File(['x'], 'trade.png', { type: 'image/png' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Upload proof' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Pictures')).toHaveAccessibleDescription(
        /trade.png is not a picture./,
      ),
    );
    expect(within(dialog).getByRole('combobox', { name: /Proof of delivery/ })).toHaveValue('');
    expect(api.callsTo('POST /admin/orders/42/deliver')).toHaveLength(0);
  });
});
