import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { SkeletonList } from '@/components/ui/skeleton';

import { useSalesStats, type SalesStats } from '@/features/sales/api/get-sales-stats';
import {
  overallSales,
  sumAmounts,
  toLineChartData,
  toRevenueChartData,
} from '@/features/sales/utils/chart-data';
import { formatMoney } from '@/lib/money';

import { DeliveryTimes } from './delivery-times';
import { DisputeFigures } from './dispute-figures';
import { RevenueFigures } from './revenue-figures';
import { SalesLineChart } from './sales-line-chart';
import './sales-dashboard-modal.css';

type SalesDashboardModalProps = {
  open: boolean;
  onClose: () => void;
};

function Charts({ stats }: { stats: SalesStats }) {
  // Colours follow the best sellers, the same in all three charts.
  const order = overallSales(stats.overall).map((line) => line.name);
  const { currency } = stats.revenue;
  return (
    <div className="sales-dashboard__charts">
      <SalesLineChart
        title="Daily Revenue"
        data={toRevenueChartData(stats.revenue.daily, `Revenue (${currency})`)}
        measure={`revenue per day in ${currency}`}
        formatValue={(amount) => formatMoney(amount, currency)}
        total={sumAmounts}
      />
      <SalesLineChart title="Daily Sales" data={toLineChartData(stats.daily, order)} />
      <SalesLineChart title="Weekly Sales" data={toLineChartData(stats.weekly, order)} />
      <SalesLineChart title="Monthly Sales" data={toLineChartData(stats.monthly, order)} />
    </div>
  );
}

/** 'Overall Pet Sales': every item with its units sold, highest first. */
function OverallSalesModal({
  open,
  onClose,
  overall,
}: {
  open: boolean;
  onClose: () => void;
  overall: Record<string, number>;
}) {
  const lines = overallSales(overall);
  return (
    <Modal open={open} onClose={onClose} title="Overall Pet Sales">
      {lines.length === 0 ? (
        <p>Nothing has been sold yet.</p>
      ) : (
        <ol className="overall-sales" aria-label="Units sold per item, highest first">
          {lines.map((line) => (
            <li key={line.name} className="overall-sales__line">
              <span className="overall-sales__name">{line.name}</span>
              <span className="overall-sales__sold">{line.sold} sold</span>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}

/**
 * The Sales Dashboard (docs/product.md, Screens): revenue in the base currency (issue 36), then
 * daily, weekly and monthly lines per item, and overall totals; then how long deliveries take
 * (issue 21).
 */
export function SalesDashboardModal({ open, onClose }: SalesDashboardModalProps) {
  const stats = useSalesStats({ enabled: open });
  const [overallOpen, setOverallOpen] = useState(false);

  const content = (
    <QueryBoundary
      query={stats}
      loading={
        <SkeletonList
          className="sales-dashboard__charts"
          label="Loading sales"
          height={300}
          count={3}
        />
      }
      errorTitle="We couldn't load the sales"
      headingLevel={3}
      errorIcon={null}
    >
      {(data) => (
        <>
          <div className="sales-dashboard__toolbar">
            <Button variant="secondary" onClick={() => setOverallOpen(true)}>
              View Overall Sales
            </Button>
          </div>
          <RevenueFigures revenue={data.revenue} />
          <Charts stats={data} />
          <DeliveryTimes delivery={data.delivery} />
          <DisputeFigures disputes={data.disputes} />
          <OverallSalesModal
            open={overallOpen}
            onClose={() => setOverallOpen(false)}
            overall={data.overall}
          />
        </>
      )}
    </QueryBoundary>
  );

  return (
    <Modal open={open} onClose={onClose} title="Sales Dashboard">
      <div className="sales-dashboard">{content}</div>
    </Modal>
  );
}
