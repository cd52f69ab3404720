import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

import { SalesDashboardModal } from './sales-dashboard-modal';

type LineProps = {
  'aria-label': string;
  data: { labels: string[]; datasets: { label: string; data: number[]; borderColor: string }[] };
  options: { plugins: { legend: unknown; tooltip: { enabled: boolean } } };
};

// jsdom has no canvas: stand in for the chart and show what it was given.
vi.mock('react-chartjs-2', () => ({
  Line: (props: LineProps) => (
    <figure role="img" aria-label={props['aria-label']}>
      {props.data.datasets.map((set) => (
        <figcaption key={set.label} data-color={set.borderColor}>
          {`${set.label}: ${set.data.join(',')}`}
        </figcaption>
      ))}
    </figure>
  ),
}));

const STATS = {
  daily: {
    Raccoon: { '2026-11-20': 1, '2026-11-21': 3 },
    Bee: { '2026-11-20': 0, '2026-11-21': 2 },
  },
  weekly: { Raccoon: { '2026-W47': 4 }, Bee: { '2026-W47': 2 } },
  monthly: { Raccoon: { '2026-11': 9 }, Bee: { '2026-11': 2 } },
  overall: { Bee: 2, Raccoon: 14, Owl: 0 },
  delivery: {
    estimate_minutes: 10,
    by_day: [
      {
        date: '2026-11-21',
        delivered: 2,
        paid_to_claimed: { median_seconds: 120, p90_seconds: 300 },
        claimed_to_delivered: { median_seconds: 360, p90_seconds: null },
        paid_to_delivered: { median_seconds: 480, p90_seconds: 900 },
      },
    ],
    by_staff: [],
  },
  disputes: {
    opened: 3,
    won: 1,
    lost: 1,
    pending: 1,
    lost_amount: 12.5,
    window_days: 30,
    opened_in_window: 1,
    paid_in_window: 200,
    rate_percent: 0.5,
    warn_rate_percent: 0.75,
    over_warning: false,
  },
  revenue: {
    daily: { '2026-11-19': 0.1, '2026-11-20': 0.2, '2026-11-21': 52.81 },
    overall: 1262.5,
    currency: 'USD',
  },
};

describe('Sales Dashboard', () => {
  it('draws the daily, weekly and monthly lines, coloured by best seller', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(STATS)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const dialog = screen.getByRole('dialog', { name: 'Sales Dashboard' });
    const daily = await within(dialog).findByRole('img', { name: /^Daily Sales/ });
    expect(within(dialog).getByRole('img', { name: /^Weekly Sales/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('img', { name: /^Monthly Sales/ })).toBeInTheDocument();
    expect(daily).toHaveAccessibleName(
      'Daily Sales: line chart of units sold per item. Totals: Raccoon 4, Bee 2.',
    );
    const lines = within(daily).getAllByText(/: /);
    expect(lines.map((line) => line.textContent)).toEqual(['Raccoon: 1,3', 'Bee: 0,2']);
    expect(lines.map((line) => line.dataset.color)).toEqual([
      'hsl(0, 70%, 42%)',
      'hsl(60, 70%, 42%)',
    ]);
    expect(
      within(dialog)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual([
      'Revenue',
      'Daily Revenue',
      'Daily Sales',
      'Weekly Sales',
      'Monthly Sales',
      'Delivery times',
      'Disputes',
    ]);
  });

  it('shows the revenue in the base currency, in figures and per day', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(STATS)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const revenue = await screen.findByRole('region', { name: 'Revenue' });
    const figures = within(revenue)
      .getAllByRole('term')
      .map((term) => `${term.textContent} ${term.nextElementSibling?.textContent}`);
    // the days added up, and everything ever
    expect(figures).toEqual(['Last 3 days $53.11', 'Overall $1,262.50']);
    expect(revenue).toHaveTextContent('In USD: paid and delivered orders');
    const chart = screen.getByRole('img', { name: /^Daily Revenue/ });
    expect(chart).toHaveAccessibleName(
      'Daily Revenue: line chart of revenue per day in USD. Totals: Revenue (USD) $53.11.',
    );
    const lines = within(chart).getAllByText(/: /);
    expect(lines.map((line) => line.textContent)).toEqual(['Revenue (USD): 0.1,0.2,52.81']);
  });

  it('writes revenue in whatever base currency the shop keeps', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse({
          ...STATS,
          revenue: { daily: { '2026-11-21': 1234.5 }, overall: 99999.99, currency: 'EUR' },
        }),
      ),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const revenue = await screen.findByRole('region', { name: 'Revenue' });
    expect(within(revenue).getByText('€99,999.99')).toBeInTheDocument();
    expect(within(revenue).getByText('€1,234.50')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /^Daily Revenue/ })).toHaveAccessibleName(
      'Daily Revenue: line chart of revenue per day in EUR. Totals: Revenue (EUR) €1,234.50.',
    );
  });

  it('shows the delivery times after the charts, as tables', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(STATS)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const delivery = await screen.findByRole('region', { name: 'Delivery times' });
    expect(delivery).toHaveTextContent('Promise: usually under 10 minutes');
    const day = within(delivery).getByRole('table', { name: 'Per day (last 30 days)' });
    expect(within(day).getByRole('rowheader', { name: 'Nov 21, 2026' })).toBeInTheDocument();
    expect(
      within(day)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', '2 min', '5 min', '6 min', '—', '8 min', '15 min']);
    expect(within(delivery).getByText('No deliveries by staff yet.')).toBeInTheDocument();
  });

  it('shows the disputes by outcome and the rate against the warning line', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(STATS)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const disputes = await screen.findByRole('region', { name: 'Disputes' });
    const figures = within(disputes)
      .getAllByRole('term')
      .map((term) => `${term.textContent} ${term.nextElementSibling?.textContent}`);
    expect(figures).toEqual(['Opened 3', 'Won 1', 'Lost 1', 'Pending 1', 'Money lost $12.50']);
    expect(within(disputes).getByTestId('dispute-rate')).toHaveTextContent(
      'Dispute rate, last 30 days: 0.5 % (1 of 200 paid orders). Warning line: 0.75 %.',
    );
    expect(within(disputes).queryByRole('alert')).toBeNull();
  });

  it('warns when the rate reaches the line', async () => {
    const over = {
      ...STATS,
      disputes: {
        ...STATS.disputes,
        opened_in_window: 2,
        paid_in_window: 100,
        rate_percent: 2,
        over_warning: true,
      },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(over)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Dispute rate, last 30 days: 2 % (2 of 100 paid orders)');
    expect(alert).toHaveTextContent('Over the line');
  });

  it('lists overall sales highest first', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(STATS)),
    );
    const { user } = renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    await user.click(await screen.findByRole('button', { name: 'View Overall Sales' }));
    const overall = screen.getByRole('dialog', { name: 'Overall Pet Sales' });
    const items = within(overall).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Raccoon14 sold',
      'Bee2 sold',
      'Owl0 sold',
    ]);
  });

  it('offers a retry when the statistics cannot be loaded', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Forbidden.' }, 403)),
    );
    renderWithProviders(<SalesDashboardModal open onClose={() => undefined} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Forbidden.');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
