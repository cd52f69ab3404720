import { screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';

import { Navbar } from '@/app/layout/navbar';
import { AdminOrdersRoute } from '@/app/routes/admin-orders';
import type { AdminOrder } from '@/features/admin-orders/types';
import { fakeApi, makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function makeOrder(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id: 41,
    status: 'paid',
    status_label: 'Paid',
    items: [
      { name: 'Raccoon', qty: 2 },
      { name: 'Golden Bee', qty: 1 },
    ],
    total: 24.5,
    currency: 'USD',
    amount_paid: 24.5,
    roblox_username: 'GardenKid',
    roblox_avatar_url: '/media/avatars/gardenkid.png',
    discord_username: 'kid#0001',
    discord_id: '123',
    email: 'kid@example.com',
    created_at: '2026-11-21T10:00:00Z',
    paid_at: '2026-11-21T10:01:00Z',
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

const LINK = 'https://www.roblox.com/share?code=abc123&type=Server';

/** The queue's API, with the member of staff's private server link already set. */
function fakeStaffApi(handlers: Parameters<typeof fakeApi>[0]) {
  return fakeApi({ 'GET /admin/private-server': () => jsonResponse({ url: LINK }), ...handlers });
}

function renderOrders(user: User | null) {
  return renderWithProviders(<AdminOrdersRoute />, {
    url: '/admin/orders',
    path: '/admin/orders',
    queryClient: queryClientWithSession(user),
  });
}

const ann = makeUser({ id: 7, name: 'Ann', account_type: 'admin' });

describe('/admin/orders', () => {
  it('is for staff only', () => {
    const calls = fakeApi({});
    renderOrders(makeUser({ account_type: 'customer' }));
    expect(screen.getByRole('heading', { name: 'Access denied. Staff only.' })).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows each paid order with the buyer and how long it has waited', async () => {
    fakeStaffApi({ 'GET /admin/orders?filter=paid': () => jsonResponse([makeOrder()]) });
    renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    expect(card).toHaveTextContent('GardenKid');
    expect(card).toHaveTextContent('kid#0001');
    expect(card).toHaveTextContent('kid@example.com');
    expect(card).toHaveTextContent('2 × Raccoon');
    expect(card).toHaveTextContent('$24.50');
    expect(card).toHaveTextContent('Waiting 12 min');
  });

  it('claims an order, and says who has it when someone else was faster', async () => {
    let first = makeOrder({ id: 41 });
    const calls = fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([first, makeOrder({ id: 42 })]),
      'POST /admin/orders/41/claim': () => {
        first = makeOrder({ id: 41, claimed_by: { id: 7, name: 'Ann' } });
        return jsonResponse(first);
      },
      'POST /admin/orders/42/claim': () =>
        jsonResponse({ message: 'Already claimed by Bob.' }, 409),
    });
    const { user } = renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Claim' }));
    expect(await within(card).findByText('You are delivering this order.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Release' })).toBeInTheDocument();
    const second = screen.getByRole('listitem', { name: 'Order #42' });
    await user.click(within(second).getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Already claimed by Bob.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/admin/orders/41/claim',
      '/admin/orders/42/claim',
    ]);
  });

  it('keeps the private server link above the queue, folded while one is set', async () => {
    fakeStaffApi({ 'GET /admin/orders?filter=paid': () => jsonResponse([makeOrder()]) });
    renderOrders(ann);
    const panel = screen.getByRole('region', { name: 'Your private server link' });
    expect(await within(panel).findByRole('link', { name: LINK })).toBeInTheDocument();
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    // Before the queue in the page, so staff see it before they claim.
    expect(panel.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(panel).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('opens and focuses the link form with the message when a claim needs a link', async () => {
    const message = 'Set your private server link first: buyers meet you there.';
    // Removed in another tab: this page still believes a link is set until it asks again.
    let link: string | null = LINK;
    const calls = fakeApi({
      'GET /admin/private-server': () => jsonResponse({ url: link }),
      'GET /admin/orders?filter=paid': () => jsonResponse([makeOrder()]),
      'POST /admin/orders/41/claim': () => {
        link = null;
        return jsonResponse({ message, errors: {} }, 409);
      },
    });
    const { user } = renderOrders(ann);
    const panel = screen.getByRole('region', { name: 'Your private server link' });
    await within(panel).findByRole('link', { name: LINK });
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Claim' }));
    const input = await within(panel).findByRole('textbox', { name: 'Private server link' });
    await waitFor(() => expect(input).toHaveFocus());
    await waitFor(() => expect(input).toHaveAccessibleDescription(new RegExp(message)));
    expect(within(panel).getByText('Not set. You need it to claim an order.')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/admin/private-server')).toHaveLength(2);
  });

  it("says who has a colleague's order instead of offering buttons that cannot work", async () => {
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () =>
        jsonResponse([makeOrder({ claimed_by: { id: 9, name: 'Bob' } })]),
    });
    renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    expect(card).toHaveTextContent('Bob is delivering this.');
    // no action that cannot work (the messages with the buyer stay open to any member of staff)
    expect(
      within(card).queryAllByRole('button', { name: /^(Claim|Release|Mark delivered|Refund)/ }),
    ).toEqual([]);
  });

  it('marks an order delivered with a chosen proof', async () => {
    const calls = fakeStaffApi({
      'GET /admin/orders?filter=paid': () =>
        jsonResponse([makeOrder({ claimed_by: { id: 7, name: 'Ann' } })]),
      'GET /proofs': () =>
        jsonResponse([
          { id: 3, items: 'Raccoon x2', images: ['/media/proofs/a.png'] },
          { id: 2, items: 'Bee', images: '["/media/proofs/b.png"]' },
        ]),
      'POST /admin/orders/41/deliver': () =>
        jsonResponse(makeOrder({ status: 'delivered', status_label: 'Delivered', proof_id: 3 })),
    });
    const { user } = renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Mark delivered' }));
    const dialog = screen.getByRole('dialog', { name: 'Mark order #41 delivered' });
    const proof = within(dialog).getByRole('combobox', { name: /Proof of delivery/ });
    await within(dialog).findByRole('option', { name: '#3 · Raccoon x2' });
    await user.selectOptions(proof, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Mark delivered' }));
    expect(await screen.findByText('Order #41 marked delivered.')).toBeInTheDocument();
    expect(calls.find((call) => call.path === '/admin/orders/41/deliver')?.body).toEqual({
      proof_id: 3,
    });
  });

  it('asks before refunding an order through the provider, saying the stock is not put back', async () => {
    const calls = fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([makeOrder()]),
      'POST /admin/orders/41/refund': () =>
        jsonResponse(makeOrder({ status: 'refunded', status_label: 'Refunded' })),
    });
    const { user } = renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Refund order #41?' });
    expect(dialog).toHaveTextContent('The stock is not put back');
    await user.click(within(dialog).getByRole('button', { name: /^Refund \$/ }));
    expect(await screen.findByText('Order #41 refunded.')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/admin/orders/41/refund')).toBe(true);
  });

  it('says the refund worked even when the live stream took the card off the list first', async () => {
    // The server tells the stream as it commits, so the queue can refetch (and the refunded order
    // leave the waiting list, unmounting its card) before the refund's own answer arrives.
    let waiting = [makeOrder()];
    const queryClient = queryClientWithSession(ann);
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse(waiting),
      'POST /admin/orders/41/refund': async () => {
        waiting = [];
        await queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
        await waitFor(() =>
          expect(screen.queryByRole('listitem', { name: 'Order #41' })).not.toBeInTheDocument(),
        );
        return jsonResponse(makeOrder({ status: 'refunded', status_label: 'Refunded' }));
      },
    });
    const { user } = renderWithProviders(<AdminOrdersRoute />, {
      url: '/admin/orders',
      path: '/admin/orders',
      queryClient,
    });
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Refund order #41?' });
    await user.click(within(dialog).getByRole('button', { name: /^Refund \$/ }));
    expect(await screen.findByText('Order #41 refunded.')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('says so when the provider refuses a refund, and the order stays as it was', async () => {
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([makeOrder()]),
      'POST /admin/orders/41/refund': () =>
        jsonResponse(
          {
            message: 'The payment provider did not refund the order; nothing changed.',
            errors: {},
          },
          502,
        ),
    });
    const { user } = renderOrders(ann);
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    await user.click(within(card).getByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Refund order #41?' });
    await user.click(within(dialog).getByRole('button', { name: 'Refund $24.50' }));
    expect(
      await screen.findByText('The payment provider did not refund the order; nothing changed.'),
    ).toBeInTheDocument();
    expect(within(card).getByText('Paid')).toBeInTheDocument();
  });

  it('offers no delivery for a disputed order and says why', async () => {
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([]),
      'GET /admin/orders?filter=all': () =>
        jsonResponse([makeOrder({ status: 'disputed', status_label: 'Disputed' })]),
    });
    const { user } = renderOrders(ann);
    await user.click(await screen.findByRole('button', { name: 'All' }));
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    expect(within(card).getByText('Disputed')).toBeInTheDocument();
    expect(within(card).getByRole('note')).toHaveTextContent('disputed this payment');
    expect(within(card).queryByRole('button', { name: 'Mark delivered' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('lists the held orders with why and since when, released to the queue by a super_admin', async () => {
    const boss = makeUser({ id: 8, name: 'Bo', account_type: 'super_admin' });
    const hold = {
      reason: 'fraud_warning',
      reason_label: 'Fraud warning',
      since: '2026-11-21T10:03:00Z',
    } as const;
    let held = [
      makeOrder({ hold }),
      makeOrder({ id: 43, hold: { ...hold, reason: 'risk_level', reason_label: 'Risky payment' } }),
    ];
    const calls = fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([]),
      'GET /admin/orders?filter=held': () => jsonResponse(held),
      'POST /admin/orders/41/hold/release': () => {
        held = held.filter((order) => order.id !== 41);
        return jsonResponse(makeOrder());
      },
    });
    const { user } = renderOrders(boss);
    await user.click(await screen.findByRole('button', { name: 'Held' }));
    expect(screen.getByRole('button', { name: 'Held' })).toHaveAttribute('aria-pressed', 'true');
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    const note = within(card).getByRole('note');
    expect(note).toHaveTextContent('Fraud warning');
    expect(note).toHaveTextContent(/On hold since Nov 21, 2026/);
    expect(within(note).getByText(/2026/, { selector: 'time' })).toHaveAttribute(
      'datetime',
      '2026-11-21T10:03:00Z',
    );
    expect(
      within(screen.getByRole('listitem', { name: 'Order #43' })).getByRole('note'),
    ).toHaveTextContent('Risky payment');
    // out of the queue: no claim, no delivery; a refund or a release
    expect(within(card).queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Mark delivered' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Refund' })).toBeEnabled();
    await user.click(within(card).getByRole('button', { name: 'Release to queue' }));
    expect(await screen.findByText('Order #41 is released to the queue.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Order #41' })).not.toBeInTheDocument(),
    );
    expect(calls.some((call) => call.path === '/admin/orders/41/hold/release')).toBe(true);
  });

  it('offers an admin the refund of a held order, not its release', async () => {
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([]),
      'GET /admin/orders?filter=held': () =>
        jsonResponse([
          makeOrder({
            claimed_by: { id: 9, name: 'Bob' },
            hold: {
              reason: 'risk_level',
              reason_label: 'Risky payment',
              since: '2026-11-21T10:03:00Z',
            },
          }),
        ]),
    });
    const { user } = renderOrders(ann);
    await user.click(await screen.findByRole('button', { name: 'Held' }));
    const card = await screen.findByRole('listitem', { name: 'Order #41' });
    expect(
      within(card).queryByRole('button', { name: 'Release to queue' }),
    ).not.toBeInTheDocument();
    expect(card).toHaveTextContent('A super admin can release it to the queue.');
    expect(within(card).getByRole('button', { name: 'Refund' })).toBeEnabled();
  });

  it('filters delivered and all orders', async () => {
    fakeStaffApi({
      'GET /admin/orders?filter=paid': () => jsonResponse([]),
      'GET /admin/orders?filter=delivered': () =>
        jsonResponse([makeOrder({ id: 50, status: 'delivered', status_label: 'Delivered' })]),
    });
    const { user } = renderOrders(ann);
    expect(await screen.findByText('No paid orders are waiting. Nice work!')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delivered' }));
    expect(screen.getByRole('button', { name: 'Delivered' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const card = await screen.findByRole('listitem', { name: 'Order #50' });
    expect(within(card).queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument();
  });
});

describe('the navbar link to the queue', () => {
  function renderNavbar(user: User | null) {
    fakeApi({});
    renderWithProviders(<Navbar cartButtonRef={createRef()} />, {
      queryClient: queryClientWithSession(user),
    });
    return within(screen.getByRole('navigation', { name: 'Main' }));
  }

  it.each(['admin', 'super_admin'] as const)('is there for an %s', (accountType) => {
    const nav = renderNavbar(makeUser({ account_type: accountType }));
    expect(nav.getByRole('link', { name: 'Orders' })).toHaveAttribute('href', '/admin/orders');
  });

  it('is not there for a customer or a visitor', () => {
    expect(
      renderNavbar(makeUser({ account_type: 'customer' })).queryByRole('link', { name: 'Orders' }),
    ).not.toBeInTheDocument();
  });
});
