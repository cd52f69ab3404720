import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AdminDisputesRoute } from '@/app/routes/admin-disputes';
import type { Dispute } from '@/features/disputes/api/disputes';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function makeDispute(overrides: Partial<Dispute> = {}): Dispute {
  return {
    dispute_id: 'du_one',
    order_id: 12,
    delivered: true,
    amount: 24.99,
    currency: 'USD',
    reason: 'product_not_received',
    status: 'needs_response',
    due_by: '2026-12-06T23:59:59Z',
    evidence: 'staged',
    outcome: null,
    note: null,
    created_at: '2026-11-29T10:00:00Z',
    ...overrides,
  };
}

function renderDisputes(user: User | null) {
  return renderWithProviders(<AdminDisputesRoute />, {
    url: '/admin/disputes',
    path: '/admin/disputes',
    queryClient: queryClientWithSession(user),
  });
}

const boss = makeUser({ id: 1, name: 'Boss', account_type: 'super_admin' });

describe('/admin/disputes', () => {
  it('shows delivered orders warned of fraud with the evidence prepared for them', async () => {
    fakeApi({
      'GET /admin/disputes': () => jsonResponse([]),
      'GET /admin/fraud-warnings': () =>
        jsonResponse([
          {
            order_id: 41,
            warned_at: '2026-11-29T10:00:00Z',
            fraud_type: 'unauthorized_use_of_card',
            evidence: 'prepared',
            prepared_at: '2026-11-29T10:00:05Z',
            error: null,
          },
          {
            order_id: 40,
            warned_at: '2026-11-28T10:00:00Z',
            fraud_type: null,
            evidence: 'failed',
            prepared_at: null,
            error: 'the payment provider failed: Stripe had a problem',
          },
        ]),
    });
    renderDisputes(boss);
    const list = await screen.findByRole('list', { name: 'Fraud warnings on delivered orders' });
    const ready = within(list).getByRole('listitem', { name: 'Order #41' });
    expect(ready).toHaveTextContent('Fraud warning');
    expect(ready).toHaveTextContent('unauthorized use of card');
    expect(ready).toHaveTextContent('Evidence ready at Stripe');
    expect(within(ready).getByRole('link', { name: 'Messages (PDF)' })).toHaveAttribute(
      'href',
      '/api/admin/fraud-warnings/41/evidence/customer_communication',
    );
    const failed = within(list).getByRole('listitem', { name: 'Order #40' });
    expect(failed).toHaveTextContent('Evidence not prepared');
    expect(failed).toHaveTextContent('Stripe had a problem');
    expect(screen.getByText('No disputes.')).toBeInTheDocument();
  });

  it('is for super admins only', () => {
    const calls = fakeApi({});
    renderDisputes(makeUser({ account_type: 'admin' }));
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lists each dispute with its reason, evidence, deadline and files', async () => {
    fakeApi({
      'GET /admin/disputes': () =>
        jsonResponse([
          makeDispute(),
          makeDispute({
            dispute_id: 'du_two',
            order_id: 13,
            delivered: false,
            evidence: 'none',
            reason: 'fraudulent',
          }),
        ]),
    });
    renderDisputes(boss);
    const staged = await screen.findByRole('listitem', { name: 'Order #12' });
    expect(staged).toHaveTextContent('Product not received');
    expect(staged).toHaveTextContent('Evidence staged: review it');
    expect(staged).toHaveTextContent('evidence due');
    expect(within(staged).getByRole('link', { name: 'Delivery record (PDF)' })).toHaveAttribute(
      'href',
      '/api/admin/disputes/du_one/evidence/service_documentation',
    );
    const undelivered = screen.getByRole('listitem', { name: 'Order #13' });
    expect(undelivered).toHaveTextContent('never delivered');
    expect(within(undelivered).queryByRole('button', { name: 'Submit evidence' })).toBeNull();
    expect(within(undelivered).queryByRole('link')).toBeNull();
  });

  it('submits the evidence with a note, and shows the server’s word on a bad note', async () => {
    let dispute = makeDispute();
    const calls = fakeApi({
      'GET /admin/disputes': () => jsonResponse([dispute]),
      'POST /admin/disputes/du_one/submit': (body) => {
        const { note } = body as { note?: string };
        if (note === 'bad') return validationError({ note: ['The note is too long.'] });
        dispute = { ...dispute, evidence: 'submitted', note: note ?? null };
        return jsonResponse(dispute);
      },
    });
    const { user } = renderDisputes(boss);
    const entry = await screen.findByRole('listitem', { name: 'Order #12' });
    await user.click(within(entry).getByRole('button', { name: 'Submit evidence' }));
    const dialog = screen.getByRole('dialog', { name: 'Submit the evidence?' });
    const note = within(dialog).getByRole('textbox', { name: /Note to the bank/ });
    await user.type(note, 'bad');
    await user.click(within(dialog).getByRole('button', { name: 'Submit evidence' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The note is too long.');
    await user.clear(note);
    await user.type(note, 'They thanked us in the ticket.');
    await user.click(within(dialog).getByRole('button', { name: 'Submit evidence' }));
    expect(
      await screen.findByText('Evidence for order #12 submitted to the bank.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Note to the bank: They thanked us in the ticket.'),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({
      note: 'They thanked us in the ticket.',
    });
  });

  it('asks before accepting a dispute, then accepts it', async () => {
    let dispute = makeDispute({ delivered: false, evidence: 'none' });
    const calls = fakeApi({
      'GET /admin/disputes': () => jsonResponse([dispute]),
      'POST /admin/disputes/du_one/accept': () => {
        dispute = { ...dispute, outcome: 'lost', status: 'lost' };
        return jsonResponse(dispute);
      },
    });
    const { user } = renderDisputes(boss);
    const entry = await screen.findByRole('listitem', { name: 'Order #12' });
    await user.click(within(entry).getByRole('button', { name: 'Accept' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Accept this dispute?' });
    await user.click(within(dialog).getByRole('button', { name: 'Accept dispute' }));
    expect(await screen.findByText('Dispute of order #12 accepted.')).toBeInTheDocument();
    expect(await screen.findByText('Lost')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/admin/disputes/du_one/accept')).toBe(true);
  });
});
