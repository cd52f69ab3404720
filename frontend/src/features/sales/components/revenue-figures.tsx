import { useId } from 'react';

import type { RevenueStats } from '@/features/sales/api/get-sales-stats';
import { sumAmounts } from '@/features/sales/utils/chart-data';
import { formatMoney } from '@/lib/money';

import './revenue-figures.css';

/**
 * "Revenue": what the paid and delivered orders brought in over the daily chart's days and
 * overall, in the shop's base currency, each order converted back at its own rate by the server.
 */
export function RevenueFigures({ revenue }: { revenue: RevenueStats }) {
  const titleId = useId();
  const days = Object.values(revenue.daily);
  const figures = [
    {
      label: `Last ${days.length} days`,
      value: formatMoney(sumAmounts(days), revenue.currency),
    },
    { label: 'Overall', value: formatMoney(revenue.overall, revenue.currency) },
  ];
  return (
    <section className="revenue-figures" aria-labelledby={titleId}>
      <h3 id={titleId} className="revenue-figures__title">
        Revenue
      </h3>
      <dl className="revenue-figures__list">
        {figures.map((figure) => (
          <div key={figure.label} className="revenue-figures__figure">
            <dt>{figure.label}</dt>
            <dd>{figure.value}</dd>
          </div>
        ))}
      </dl>
      <p className="revenue-figures__note">
        In {revenue.currency}: paid and delivered orders, each at the rate it was paid at.
      </p>
    </section>
  );
}
