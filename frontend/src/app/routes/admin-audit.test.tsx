import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AdminAuditRoute } from '@/app/routes/admin-audit';
import { localMidnight } from '@/features/audit/api/get-audit-log';
import type { AuditEntry, AuditPage } from '@/features/audit/types';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function makeEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 7,
    at: '2026-11-25T10:00:00Z',
    actor: { id: 1, name: 'Boss' },
    kind: 'stock.set',
    target: 'product:12',
    before: { name: 'Owl', stock: 4 },
    after: { name: 'Owl', stock: 12 },
    ip: '203.0.113.7',
    ...overrides,
  };
}

function page(entries: AuditEntry[], next_cursor: number | null = null): AuditPage {
  return {
    entries,
    next_cursor,
    actors: [
      { id: 1, name: 'Boss' },
      { id: null, name: 'command line' },
    ],
    kinds: ['product.update', 'stock.set', 'user.role'],
  };
}

function renderAudit(user: User | null) {
  return renderWithProviders(<AdminAuditRoute />, {
    url: '/admin/audit',
    path: '/admin/audit',
    queryClient: queryClientWithSession(user),
  });
}

const boss = makeUser({ id: 1, name: 'Boss', account_type: 'super_admin' });

describe('/admin/audit', () => {
  it('is for super admins only', () => {
    const calls = fakeApi({});
    renderAudit(makeUser({ account_type: 'admin' }));
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows each entry: what, on what, by whom, from where, and before -> after', async () => {
    fakeApi({
      'GET /admin/audit': () =>
        jsonResponse(
          page([
            makeEntry(),
            makeEntry({
              id: 6,
              kind: 'user.role',
              target: 'user:3',
              actor: { id: null, name: 'command line' },
              ip: null,
              before: { email: 'eve@example.com', role: 'admin' },
              after: { email: 'eve@example.com', role: 'super_admin' },
            }),
          ]),
        ),
    });
    renderAudit(boss);
    const stock = await screen.findByRole('listitem', { name: 'Stock set product:12' });
    expect(stock).toHaveTextContent('Owl');
    expect(stock).toHaveTextContent('By Boss');
    expect(stock).toHaveTextContent('from 203.0.113.7');
    expect(within(stock).getByRole('term')).toHaveTextContent('Stock');
    expect(within(stock).getByRole('definition')).toHaveTextContent('4 → 12');
    const role = screen.getByRole('listitem', { name: 'Role changed user:3' });
    expect(role).toHaveTextContent('By command line');
    expect(role).not.toHaveTextContent(' from ');
    expect(within(role).getByRole('definition')).toHaveTextContent('admin → super_admin');
    expect(screen.getByText('2 entries. That is all.')).toBeInTheDocument();
  });

  it('filters by staff member, kind and days, and clears the filters', async () => {
    const since = new URLSearchParams({ since: localMidnight('2026-11-24') ?? '' }).toString();
    const calls = fakeApi({
      'GET /admin/audit': () => jsonResponse(page([makeEntry()])),
      'GET /admin/audit?actor_id=cli': () => jsonResponse(page([])),
      [`GET /admin/audit?actor_id=cli&kind=user.role&${since}`]: () => jsonResponse(page([])),
      'GET /admin/audit?actor_id=cli&kind=user.role': () =>
        jsonResponse(
          page([makeEntry({ id: 2, kind: 'user.role', target: 'user:3', before: {}, after: {} })]),
        ),
    });
    const { user } = renderAudit(boss);
    await screen.findByRole('listitem', { name: 'Stock set product:12' });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Staff member' }), 'cli');
    expect(await screen.findByText('Nothing matches these filters.')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'user.role');
    const role = await screen.findByRole('listitem', { name: 'Role changed user:3' });
    expect(role).toHaveTextContent('No values changed.');
    expect(calls.map((call) => call.path)).toContain('/admin/audit?actor_id=cli&kind=user.role');

    // a local day: from its local midnight
    await user.type(screen.getByLabelText('From'), '2026-11-24');
    expect(await screen.findByText('Nothing matches these filters.')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain(
      `/admin/audit?actor_id=cli&kind=user.role&${since}`,
    );

    const form = screen.getByRole('form', { name: 'Filter the audit log' });
    await user.click(within(form).getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('listitem', { name: 'Stock set product:12' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Staff member' })).toHaveValue('');
  });

  it('loads older entries with the cursor', async () => {
    fakeApi({
      'GET /admin/audit': () => jsonResponse(page([makeEntry({ id: 9 })], 9)),
      'GET /admin/audit?cursor=9': () =>
        jsonResponse(page([makeEntry({ id: 4, target: 'product:4' })])),
    });
    const { user } = renderAudit(boss);
    await screen.findByRole('listitem', { name: 'Stock set product:12' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(
      await screen.findByRole('listitem', { name: 'Stock set product:4' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says when there is nothing yet, and shows the server’s word on an error', async () => {
    fakeApi({ 'GET /admin/audit': () => jsonResponse(page([])) });
    const first = renderAudit(boss);
    expect(await screen.findByText('No staff actions yet.')).toBeInTheDocument();
    first.unmount();

    fakeApi({
      'GET /admin/audit': () =>
        jsonResponse({ message: 'The database is unavailable.', errors: {} }, 503),
    });
    renderAudit(boss);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't load the audit log");
    expect(alert).toHaveTextContent('The database is unavailable.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows a refused filter at its field and offers to clear the filters', async () => {
    fakeApi({
      'GET /admin/audit': () => jsonResponse(page([makeEntry()])),
      'GET /admin/audit?kind=stock.set': () =>
        validationError({ kind: ['This is not a kind of audit entry.'] }),
    });
    const { user } = renderAudit(boss);
    await screen.findByRole('listitem', { name: 'Stock set product:12' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'stock.set');
    expect(await screen.findByText('This is not a kind of audit entry.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveAttribute('aria-invalid', 'true');
    const alert = screen.getByRole('alert');
    await user.click(within(alert).getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByRole('listitem', { name: 'Stock set product:12' })).toBeVisible();
  });
});
