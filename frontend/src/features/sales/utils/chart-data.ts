import type { SalesSeries } from '@/features/sales/api/get-sales-stats';
import { toCents } from '@/lib/money';

/** Each item's line turns 60 degrees further round the colour wheel (docs/product.md, Screens). */
export const HUE_STEP = 60;

export function hueOf(index: number): number {
  return (index * HUE_STEP) % 360;
}

/** The line's colour; after six items the hues repeat, so the lightness steps down a little. */
export function lineColor(index: number): string {
  const lightness = 42 - (Math.floor(index / (360 / HUE_STEP)) % 3) * 8;
  return `hsl(${hueOf(index)}, 70%, ${lightness}%)`;
}

export type LineSeries = {
  label: string;
  data: number[];
  hue: number;
  color: string;
};

export type LineChartData = {
  /** Period keys, oldest first. */
  labels: string[];
  /** One line per item. */
  series: LineSeries[];
};

/**
 * One line per item over every period any item has, oldest first; a period an item lacks counts
 * 0. Items keep the server's order so a colour stays with its item across the three charts.
 */
export function toLineChartData(stats: SalesSeries, itemOrder: readonly string[]): LineChartData {
  const labels = [
    ...new Set(Object.values(stats).flatMap((byPeriod) => Object.keys(byPeriod))),
  ].sort();
  const items = [
    ...itemOrder.filter((item) => item in stats),
    ...Object.keys(stats).filter((item) => !itemOrder.includes(item)),
  ];
  return {
    labels,
    series: items.map((item, index) => ({
      label: item,
      data: labels.map((period) => stats[item]?.[period] ?? 0),
      hue: hueOf(index),
      color: lineColor(index),
    })),
  };
}

/** Every item named in any of the maps, in first-seen order: the colour order of the charts. */
export function itemOrder(...maps: ReadonlyArray<Record<string, unknown>>): string[] {
  return [...new Set(maps.flatMap((map) => Object.keys(map)))];
}

export type OverallLine = { name: string; sold: number };

/** 'Overall Pet Sales': highest first; ties by name. */
export function overallSales(overall: Record<string, number>): OverallLine[] {
  return Object.entries(overall)
    .map(([name, sold]) => ({ name, sold }))
    .sort((a, b) => b.sold - a.sold || a.name.localeCompare(b.name));
}

/** Revenue's line: the palette's green (hue 120). */
export const REVENUE_LINE = 2;

/** Revenue per day ("2026-11-21" -> amount) as one line called `label`, oldest first. */
export function toRevenueChartData(daily: Record<string, number>, label: string): LineChartData {
  const labels = Object.keys(daily).sort();
  return {
    labels,
    series: [
      {
        label,
        data: labels.map((day) => daily[day] ?? 0),
        hue: hueOf(REVENUE_LINE),
        color: lineColor(REVENUE_LINE),
      },
    ],
  };
}

/** Amounts in a currency with cents added up exact to the cent (0.1 + 0.2 is 0.3). */
export function sumAmounts(amounts: readonly number[]): number {
  return amounts.reduce((cents, amount) => cents + toCents(amount), 0) / 100;
}
