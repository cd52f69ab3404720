import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import {
  getSessionQueryOptions,
  LOGGED_OUT,
  sessionQueryKey,
  setSession,
} from '@/features/auth/api/get-session';
import { SessionGate } from '@/features/auth/components/session-gate';
import { useUser } from '@/features/auth/hooks/use-user';
import { makeUser } from '@/features/auth/testing/fake-api';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

function Who() {
  const { user, isLoggedIn, isStaff, isSuperAdmin, accountType } = useUser();
  return (
    <p>
      {isLoggedIn ? `${user?.name} (${accountType})` : 'Nobody'}
      {isStaff ? ' staff' : ''}
      {isSuperAdmin ? ' super' : ''}
    </p>
  );
}

function renderGate(queryClient = createTestQueryClient()) {
  render(
    <QueryClientProvider client={queryClient}>
      <SessionGate fallback={<p>Checking…</p>}>
        <Who />
      </SessionGate>
    </QueryClientProvider>,
  );
  return queryClient;
}

describe('session', () => {
  it('asks GET /api/auth/check with cookies', async () => {
    const ann = makeUser();
    const fetchMock = vi.fn(async () => jsonResponse({ loggedIn: true, user: ann }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(createTestQueryClient().fetchQuery(getSessionQueryOptions())).resolves.toEqual({
      loggedIn: true,
      user: ann,
    });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/check',
      expect.objectContaining({ method: 'GET', credentials: 'include' }),
    );
  });

  it.each([
    ['a server error', () => jsonResponse({ message: 'Boom' }, 500)],
    ['no connection', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['a logged-in answer without a user', () => jsonResponse({ loggedIn: true, user: null })],
  ])('counts %s as logged out', async (_, answer) => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', vi.fn(answer));
    await expect(createTestQueryClient().fetchQuery(getSessionQueryOptions())).resolves.toEqual(
      LOGGED_OUT,
    );
  });

  it('renders the app only after the check answers', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    renderGate();
    expect(screen.getByText('Checking…')).toBeInTheDocument();
    expect(screen.queryByText(/Nobody|Ann/)).not.toBeInTheDocument();
    answer(
      jsonResponse({
        loggedIn: true,
        user: makeUser({ name: 'Ann', account_type: 'super_admin' }),
      }),
    );
    expect(await screen.findByText('Ann (super_admin) staff super')).toBeInTheDocument();
    expect(screen.queryByText('Checking…')).not.toBeInTheDocument();
  });

  it('renders the app logged out when the check fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Boom' }, 502)),
    );
    renderGate();
    expect(await screen.findByText('Nobody')).toBeInTheDocument();
  });

  it('tells an admin from a customer', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({ loggedIn: true, user: makeUser({ name: 'Bo', account_type: 'admin' }) }),
      ),
    );
    renderGate();
    expect(await screen.findByText('Bo (admin) staff')).toBeInTheDocument();
  });

  it('a session change drops the previous user’s data and keeps the rest', () => {
    const client = createTestQueryClient();
    client.setQueryData(['products'], ['kept']);
    client.getQueryCache().build(client, {
      queryKey: ['profile', 1],
      meta: { userScoped: true },
    });
    client.setQueryData(['profile', 1], { orders: ['private'] });

    const bo = makeUser({ name: 'Bo' });
    setSession(client, bo);
    expect(client.getQueryData(sessionQueryKey)).toEqual({ loggedIn: true, user: bo });
    expect(client.getQueryData(['profile', 1])).toBeUndefined();
    expect(client.getQueryData(['products'])).toEqual(['kept']);

    setSession(client, null);
    expect(client.getQueryData(sessionQueryKey)).toEqual(LOGGED_OUT);
  });
});
