import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';

import {
  INVALID_PROMO,
  PROMO_NEEDS_CODE,
  PROMO_NEEDS_CODE_AND_DISCORD,
  PROMO_NEEDS_DISCORD,
  usePromo,
} from '@/features/checkout/hooks/use-promo';
import { stubApi } from '@/testing/api-stub';
import { createTestQueryClient, jsonResponse } from '@/testing/test-utils';

function renderPromo(discordId: string | null = '42') {
  const client = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook((id: string | null) => usePromo(id), { wrapper, initialProps: discordId });
}

describe('usePromo', () => {
  it('applies the trimmed code for the linked account and says so', async () => {
    const api = stubApi({ 'POST /validate-promo': () => jsonResponse({ discount: 10 }) });
    const { result } = renderPromo();
    act(() => result.current.changeCode('  summer10 '));
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.discountPercent).toBe(10));
    expect(api.callsTo('POST /validate-promo')[0]?.body).toEqual({
      promo_code: 'summer10',
      discord_id: '42',
    });
    expect(result.current.applied).toEqual({ code: 'summer10', percent: 10 });
    expect(result.current.message).toEqual({ tone: 'success', text: 'SUMMER10 applied: 10% off.' });
  });

  it('needs a code and a linked Discord account before asking, and names what is missing', () => {
    const api = stubApi({});
    const { result, rerender } = renderPromo(null);
    act(() => result.current.apply());
    expect(result.current.message).toEqual({ tone: 'error', text: PROMO_NEEDS_CODE_AND_DISCORD() });
    act(() => result.current.changeCode('SUMMER10'));
    act(() => result.current.apply());
    expect(result.current.message).toEqual({ tone: 'error', text: PROMO_NEEDS_DISCORD() });
    rerender('42');
    act(() => result.current.changeCode('   '));
    act(() => result.current.apply());
    expect(result.current.message?.text).toBe(PROMO_NEEDS_CODE());
    expect(api.calls).toEqual([]);
  });

  it("resets the discount to 0 on a failure, with the server's reason or the generic one", async () => {
    const api = stubApi({ 'POST /validate-promo': () => jsonResponse({ discount: 20 }) });
    const { result } = renderPromo();
    act(() => result.current.changeCode('SAVE20'));
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.discountPercent).toBe(20));

    api.handlers['POST /validate-promo'] = () =>
      jsonResponse({ message: 'This code has expired.' }, 422);
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.discountPercent).toBe(0));
    expect(result.current.message).toEqual({ tone: 'error', text: 'This code has expired.' });

    api.handlers['POST /validate-promo'] = () => jsonResponse({ discount: 0 });
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.message?.text).toBe(INVALID_PROMO()));
    expect(result.current.applied).toBeNull();
  });

  it('drops the promo when the code changes or another Discord account is linked', async () => {
    stubApi({ 'POST /validate-promo': () => jsonResponse({ discount: 10 }) });
    const { result, rerender } = renderPromo();
    act(() => result.current.changeCode('SUMMER10'));
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.discountPercent).toBe(10));

    act(() => result.current.changeCode('SUMMER10 '));
    expect(result.current.discountPercent).toBe(10);
    act(() => result.current.changeCode('SUMMER1'));
    expect(result.current.applied).toBeNull();
    expect(result.current.message).toBeNull();

    act(() => result.current.changeCode('SUMMER10'));
    act(() => result.current.apply());
    await waitFor(() => expect(result.current.discountPercent).toBe(10));
    rerender('43');
    expect(result.current.applied).toBeNull();
    expect(result.current.code).toBe('SUMMER10');
  });
});
