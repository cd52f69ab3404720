import { act, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { AdminOrder } from '@/features/admin-orders/types';
import { summarizeQueue } from '@/features/admin-orders/utils/queue-summary';

import { LiveState, QueueSummaryStrip } from './queue-summary';

const live = vi.hoisted(() => ({ up: false, listeners: new Set<() => void>() }));
vi.mock(import('@/lib/live-events'), async (importOriginal) => ({
  ...(await importOriginal()),
  isLive: () => live.up,
  subscribeLive: (listener: () => void) => {
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  },
}));

function setLive(up: boolean) {
  act(() => {
    live.up = up;
    live.listeners.forEach((listener) => listener());
  });
}

function paid(id: number, overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    id,
    status: 'paid',
    hold: null,
    claimed_by: null,
    buyer_ready_at: null,
    minutes_waiting: 1,
    over_promise: false,
    ...overrides,
  } as AdminOrder;
}

afterEach(() => setLive(false));

describe('the queue summary', () => {
  it('counts the waiting, the claimed and the ready orders and the oldest unclaimed wait', () => {
    const summary = summarizeQueue([
      paid(1, { minutes_waiting: 4 }),
      paid(2, { minutes_waiting: 14, over_promise: true }),
      // claimed long ago: being delivered, not waiting
      paid(3, { minutes_waiting: 40, claimed_by: { id: 2, name: 'Ann' } }),
      paid(4, {
        minutes_waiting: 2,
        claimed_by: { id: 2, name: 'Ann' },
        buyer_ready_at: '2026-11-26T10:00:00Z',
      }),
      // on a risk hold: out of the queue
      paid(5, {
        minutes_waiting: 90,
        hold: { reason: 'risk_level', reason_label: 'Risky payment', since: '' },
      }),
    ]);
    expect(summary).toEqual({
      waiting: 2,
      claimed: 2,
      ready: 1,
      oldestWaitMinutes: 14,
      late: true,
    });
    expect(summarizeQueue([])).toEqual({
      waiting: 0,
      claimed: 0,
      ready: 0,
      oldestWaitMinutes: null,
      late: false,
    });
  });

  it('shows the counts, the oldest wait in red once an order runs past the promise', () => {
    render(
      <QueueSummaryStrip
        summary={{ waiting: 3, claimed: 1, ready: 2, oldestWaitMinutes: 75, late: true }}
      />,
    );
    const strip = screen.getByLabelText('Queue summary');
    const term = (name: string) => within(strip).getByText(name).nextElementSibling as HTMLElement;
    expect(term('Waiting')).toHaveTextContent('3');
    expect(term('Being delivered')).toHaveTextContent('1');
    expect(term('Ready in game')).toHaveTextContent('2');
    expect(term('Oldest wait')).toHaveTextContent('1 h 15 min');
    expect(term('Oldest wait').parentElement).toHaveClass('queue-summary__item--late');
  });

  it('says the page is live while the event stream is up, and how it catches up otherwise', () => {
    render(<LiveState />);
    expect(screen.getByRole('status')).toHaveTextContent(/^Reconnecting: .* every 10 seconds/);
    expect(screen.getByRole('status')).not.toHaveTextContent('refreshes by itself');
    setLive(true);
    expect(screen.getByRole('status')).toHaveTextContent(/^Live: /);
  });
});
