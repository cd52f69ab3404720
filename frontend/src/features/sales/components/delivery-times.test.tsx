import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { DeliveryStats, StepTimes } from '@/features/sales/api/get-sales-stats';

import { DeliveryTimes } from './delivery-times';

const times = (median: number | null, p90: number | null): StepTimes => ({
  median_seconds: median,
  p90_seconds: p90,
});

const DELIVERY: DeliveryStats = {
  estimate_minutes: 15,
  by_day: [
    {
      date: '2026-11-25',
      delivered: 3,
      paid_to_claimed: times(240, 600),
      claimed_to_delivered: times(3900, null),
      paid_to_delivered: times(4140, 7260),
    },
    {
      date: '2026-11-26',
      delivered: 1,
      paid_to_claimed: times(20, 20),
      claimed_to_delivered: times(null, null),
      paid_to_delivered: times(null, null),
    },
  ],
  by_staff: [
    {
      staff_name: 'Ann',
      delivered: 4,
      paid_to_claimed: times(180, 540),
      claimed_to_delivered: times(300, 3600),
      paid_to_delivered: times(480, null),
    },
    {
      staff_name: 'Bob',
      delivered: 0,
      paid_to_claimed: times(null, null),
      claimed_to_delivered: times(null, null),
      paid_to_delivered: times(null, null),
    },
  ],
};

/** Each body row's cells as read, header cell first. */
function bodyRows(table: HTMLElement): string[][] {
  const [, , ...rows] = within(table).getAllByRole('row'); // two header rows
  return rows.map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
  );
}

describe('Delivery times', () => {
  it('states the promise the shop makes', () => {
    render(<DeliveryTimes delivery={DELIVERY} />);
    const section = screen.getByRole('region', { name: 'Delivery times' });
    expect(section).toHaveTextContent('Promise: usually under 15 minutes');
  });

  it('lists each day with the median and p90 of every step in minutes, — where none', () => {
    render(<DeliveryTimes delivery={DELIVERY} />);
    const table = screen.getByRole('table', { name: 'Per day (last 30 days)' });
    expect(within(table).getByRole('columnheader', { name: 'Paid → claimed' })).toBeInTheDocument();
    expect(
      within(table).getByRole('columnheader', { name: 'Claimed → delivered' }),
    ).toBeInTheDocument();
    expect(
      within(table).getByRole('columnheader', { name: 'Paid → delivered' }),
    ).toBeInTheDocument();
    expect(within(table).getAllByRole('columnheader', { name: 'Median' })).toHaveLength(3);
    expect(within(table).getAllByRole('columnheader', { name: 'p90' })).toHaveLength(3);
    expect(bodyRows(table)).toEqual([
      ['Nov 25, 2026', '3', '4 min', '10 min', '1 h 5 min', '—', '1 h 9 min', '2 h 1 min'],
      ['Nov 26, 2026', '1', '< 1 min', '< 1 min', '—', '—', '—', '—'],
    ]);
    expect(within(table).getByText('Nov 25, 2026')).toHaveAttribute('datetime', '2026-11-25');
  });

  it('lists each member of staff the same way', () => {
    render(<DeliveryTimes delivery={DELIVERY} />);
    const table = screen.getByRole('table', { name: 'Per staff member' });
    expect(bodyRows(table)).toEqual([
      ['Ann', '4', '3 min', '9 min', '5 min', '1 h', '8 min', '—'],
      ['Bob', '0', '—', '—', '—', '—', '—', '—'],
    ]);
  });

  it('says so when nothing was delivered yet', () => {
    render(<DeliveryTimes delivery={{ estimate_minutes: 10, by_day: [], by_staff: [] }} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No deliveries in the last 30 days.')).toBeInTheDocument();
    expect(screen.getByText('No deliveries by staff yet.')).toBeInTheDocument();
    expect(screen.getByText(/Promise: usually under/)).toHaveTextContent('10 minutes');
  });
});
