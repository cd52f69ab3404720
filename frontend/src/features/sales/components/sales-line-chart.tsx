import {
  CategoryScale,
  Chart as ChartJS,
  Legend,
  LinearScale,
  LineElement,
  PointElement,
  Tooltip,
  type ChartOptions,
  type TooltipModel,
} from 'chart.js';
import { useId } from 'react';
import { Line } from 'react-chartjs-2';

import type { LineChartData } from '@/features/sales/utils/chart-data';

import './sales-line-chart.css';

// Only the pieces a line chart with a legend and tooltips needs, so the bundle stays small.
ChartJS.register(CategoryScale, LinearScale, PointElement, LineElement, Tooltip, Legend);

type SalesLineChartProps = {
  title: string;
  data: LineChartData;
  /** What the lines are, for the chart's accessible name ("units sold per item"). */
  measure?: string;
  /** A value as the axis, the tooltip and the accessible name write it (units: as is). */
  formatValue?: (value: number) => string;
  /** A line's total, for the accessible name (units: the sum). */
  total?: (values: readonly number[]) => number;
};

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Chart.js draws its tooltip on the canvas, where it cannot be given a width; this one is an
 * HTML box, 200 px wide, listing every item's value for the hovered period.
 */
function renderTooltip(tooltipId: string, formatValue: (value: number) => string) {
  return ({ chart, tooltip }: { chart: ChartJS; tooltip: TooltipModel<'line'> }) => {
    const host = chart.canvas.parentElement;
    if (!host) return;
    let box = host.querySelector<HTMLDivElement>(`[data-tooltip="${tooltipId}"]`);
    if (!box) {
      box = document.createElement('div');
      box.dataset.tooltip = tooltipId;
      box.className = 'sales-tooltip';
      box.setAttribute('role', 'presentation');
      host.appendChild(box);
    }
    if (tooltip.opacity === 0) {
      box.style.opacity = '0';
      return;
    }
    box.replaceChildren();
    const heading = document.createElement('p');
    heading.className = 'sales-tooltip__title';
    heading.textContent = tooltip.title.join(' ');
    box.appendChild(heading);
    const list = document.createElement('ul');
    list.className = 'sales-tooltip__list';
    tooltip.dataPoints.forEach((point) => {
      const row = document.createElement('li');
      const swatch = document.createElement('span');
      swatch.className = 'sales-tooltip__swatch';
      swatch.style.background = String(point.dataset.borderColor);
      const name = document.createElement('span');
      name.className = 'sales-tooltip__name';
      name.textContent = point.dataset.label ?? '';
      const value = document.createElement('span');
      value.className = 'sales-tooltip__value';
      value.textContent = formatValue(point.parsed.y ?? 0);
      row.append(swatch, name, value);
      list.appendChild(row);
    });
    box.appendChild(list);
    // Keep the 200 px box inside the chart: flip to the left of the point near the right edge.
    const width = 200;
    const left =
      tooltip.caretX + 12 + width > host.clientWidth
        ? tooltip.caretX - 12 - width
        : tooltip.caretX + 12;
    box.style.left = `${Math.max(0, left)}px`;
    box.style.top = `${Math.max(0, tooltip.caretY - 16)}px`;
    box.style.opacity = '1';
  };
}

export function SalesLineChart({
  title,
  data,
  measure = 'units sold per item',
  formatValue = String,
  total = sum,
}: SalesLineChartProps) {
  const tooltipId = useId();
  const headingId = useId();
  const options: ChartOptions<'line'> = {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    interaction: { mode: 'index', intersect: false },
    scales: {
      y: {
        beginAtZero: true,
        ticks: { precision: 0, callback: (value) => formatValue(Number(value)) },
      },
      x: { ticks: { maxRotation: 0, autoSkip: true, autoSkipPadding: 12 } },
    },
    plugins: {
      legend: { position: 'bottom', labels: { boxWidth: 12, usePointStyle: true } },
      tooltip: { enabled: false, external: renderTooltip(tooltipId, formatValue) },
    },
  };
  const totals = data.series.map((line) => `${line.label} ${formatValue(total(line.data))}`);

  return (
    <section className="sales-chart" aria-labelledby={headingId}>
      <h3 id={headingId} className="sales-chart__title">
        {title}
      </h3>
      <div className="sales-chart__canvas">
        <Line
          role="img"
          aria-label={`${title}: line chart of ${measure}. Totals: ${totals.join(', ') || 'no sales'}.`}
          options={options}
          data={{
            labels: data.labels,
            datasets: data.series.map((line) => ({
              label: line.label,
              data: line.data,
              borderColor: line.color,
              backgroundColor: line.color,
              pointRadius: 2,
              pointHoverRadius: 4,
              borderWidth: 2,
              tension: 0.25,
            })),
          }}
        />
      </div>
    </section>
  );
}
