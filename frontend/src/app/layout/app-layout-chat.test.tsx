import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { AppLayout } from '@/app/layout/app-layout';
import { makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

function renderShell(accountType: 'customer' | 'admin' | 'super_admin' | null) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse({ message: 'Not found.', errors: {} }, 404)),
  );
  const queryClient = queryClientWithSession(
    accountType ? makeUser({ account_type: accountType }) : null,
  );
  renderWithProviders(<AppLayout />, { queryClient });
}

describe('app shell: help chat and Live Chats', () => {
  it('offers the help chat, closed, to everyone and Live Chats to nobody but staff', () => {
    for (const accountType of [null, 'customer'] as const) {
      renderShell(accountType);
      const launcher = screen.getByRole('button', { name: 'Chat with us' });
      expect(launcher).toHaveAttribute('aria-expanded', 'false');
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Live Chats' })).toBeNull();
      launcher.ownerDocument.body.innerHTML = '';
    }
  });

  it.each(['admin', 'super_admin'] as const)('shows Live Chats to %s', async (accountType) => {
    renderShell(accountType);
    // its code loads for staff only, after the first render
    expect(await screen.findByRole('button', { name: 'Live Chats' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Chat with us' })).toBeInTheDocument();
  });
});
