import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { AdminBlocklistRoute } from '@/app/routes/admin-blocklist';
import type { BlockEntry } from '@/features/blocklist/types';
import {
  fakeApi,
  makeUser,
  queryClientWithSession,
  validationError,
} from '@/features/auth/testing/fake-api';
import type { User } from '@/features/auth/types';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function makeEntry(overrides: Partial<BlockEntry> = {}): BlockEntry {
  return {
    id: 3,
    kind: 'email',
    kind_label: 'E-mail',
    value: 'kid@example.com',
    reason: 'chargeback on order #12',
    added_by: null,
    created_at: '2026-11-24T10:00:00Z',
    canonical: 'kid@example.com',
    status: 'active',
    expires_at: null,
    ...overrides,
  };
}

function renderBlocklist(user: User | null) {
  return renderWithProviders(<AdminBlocklistRoute />, {
    url: '/admin/blocklist',
    path: '/admin/blocklist',
    queryClient: queryClientWithSession(user),
  });
}

const boss = makeUser({ id: 1, name: 'Boss', account_type: 'super_admin' });

describe('/admin/blocklist', () => {
  it('is for super admins only', () => {
    const calls = fakeApi({});
    renderBlocklist(makeUser({ account_type: 'admin' }));
    expect(
      screen.getByRole('heading', { name: 'Access denied. Super Admins only.' }),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('lists each entry with its reason, who added it and when', async () => {
    fakeApi({
      'GET /admin/blocklist': () =>
        jsonResponse({
          entries: [
            makeEntry(),
            makeEntry({
              id: 2,
              kind: 'ip',
              kind_label: 'IP address',
              value: '203.0.113.7',
              reason: 'card testing',
              added_by: { id: 1, name: 'Boss' },
            }),
          ],
          total: 2,
        }),
    });
    renderBlocklist(boss);
    const email = await screen.findByRole('listitem', { name: 'E-mail kid@example.com' });
    expect(email).toHaveTextContent('chargeback on order #12');
    expect(email).toHaveTextContent('Added by the shop');
    const ip = screen.getByRole('listitem', { name: 'IP address 203.0.113.7' });
    expect(ip).toHaveTextContent('Added by Boss');
  });

  it('adds an entry and shows the server’s word on a bad value', async () => {
    let entries: BlockEntry[] = [];
    const calls = fakeApi({
      'GET /admin/blocklist': () => jsonResponse({ entries, total: entries.length }),
      'POST /admin/blocklist': (body) => {
        const { value } = body as { value: string };
        if (value === 'nope') return validationError({ value: ['Enter a valid e-mail address.'] });
        entries = [makeEntry({ id: 9, value: value.toLowerCase(), reason: 'fraud' })];
        return jsonResponse(entries[0], 201);
      },
    });
    const { user } = renderBlocklist(boss);
    expect(await screen.findByText('Nobody is blocked.')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'nope');
    await user.type(screen.getByRole('textbox', { name: 'Reason' }), 'fraud');
    await user.click(screen.getByRole('button', { name: 'Add to blocklist' }));
    expect(await screen.findAllByText('Enter a valid e-mail address.')).not.toHaveLength(0);

    await user.clear(screen.getByRole('textbox', { name: 'Value' }));
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'Kid@Example.com');
    await user.click(screen.getByRole('button', { name: 'Add to blocklist' }));
    expect(
      await screen.findByRole('listitem', { name: 'E-mail kid@example.com' }),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({
      kind: 'email',
      value: 'Kid@Example.com',
      reason: 'fraud',
    });
  });

  it('asks before removing an entry, then removes it', async () => {
    const calls = fakeApi({
      'GET /admin/blocklist': () => jsonResponse({ entries: [makeEntry()], total: 1 }),
      'DELETE /admin/blocklist/3': () => new Response(null, { status: 204 }),
    });
    const { user } = renderBlocklist(boss);
    const entry = await screen.findByRole('listitem', { name: 'E-mail kid@example.com' });
    await user.click(within(entry).getByRole('button', { name: /^Remove/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this entry?' });
    expect(dialog).toHaveTextContent('kid@example.com can check out again.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(
      await screen.findByText('E-mail kid@example.com is no longer blocked.'),
    ).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
  });

  it('shows what an entry matches and until when, and confirms a flagged one', async () => {
    let flagged = makeEntry({
      id: 4,
      value: 'k.i.d+shop@gmail.com',
      canonical: 'kid@gmail.com',
      status: 'flagged',
    });
    const calls = fakeApi({
      'GET /admin/blocklist': () =>
        jsonResponse({
          entries: [
            flagged,
            makeEntry({
              id: 5,
              kind: 'ip',
              kind_label: 'IP address',
              value: '2001:db8::7',
              canonical: null,
              expires_at: '2026-12-24T10:00:00Z',
            }),
          ],
          total: 2,
        }),
      'POST /admin/blocklist/4/confirm': () => {
        flagged = { ...flagged, status: 'active' };
        return jsonResponse(flagged);
      },
    });
    const { user } = renderBlocklist(boss);
    const email = await screen.findByRole('listitem', {
      name: 'E-mail k.i.d+shop@gmail.com',
    });
    expect(email).toHaveTextContent('Flagged: not blocking');
    expect(email).toHaveTextContent('matches every spelling of kid@gmail.com');
    const ip = screen.getByRole('listitem', { name: 'IP address 2001:db8::7' });
    expect(ip).toHaveTextContent('covers its /64 network');
    expect(ip).toHaveTextContent('blocks until');
    expect(within(ip).queryByRole('button', { name: /^Confirm block/ })).toBeNull();

    await user.click(within(email).getByRole('button', { name: /^Confirm block/ }));
    expect(
      await screen.findByText('E-mail k.i.d+shop@gmail.com is blocked now.'),
    ).toBeInTheDocument();
    expect(email).not.toHaveTextContent('Flagged: not blocking');
    expect(calls.some((call) => call.method === 'POST')).toBe(true);
  });
});
