import { describe, expect, it } from 'vitest';

import {
  hueOf,
  lineColor,
  overallSales,
  sumAmounts,
  toLineChartData,
  toRevenueChartData,
} from './chart-data';

describe('sales chart data', () => {
  it('gives each item a hue 60 degrees further round the wheel', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(hueOf)).toEqual([0, 60, 120, 180, 240, 300, 0, 60]);
    expect(lineColor(1)).toBe('hsl(60, 70%, 42%)');
    // The seventh item repeats the first hue, a little darker, so the lines stay apart.
    expect(lineColor(6)).not.toBe(lineColor(0));
  });

  it('makes one line per item over every period, oldest first, 0 where an item has none', () => {
    const data = toLineChartData(
      {
        Raccoon: { '2026-11-21': 3, '2026-11-20': 1 },
        Bee: { '2026-11-22': 2 },
      },
      ['Bee', 'Raccoon'],
    );
    expect(data.labels).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(data.series).toEqual([
      { label: 'Bee', data: [0, 0, 2], hue: 0, color: lineColor(0) },
      { label: 'Raccoon', data: [1, 3, 0], hue: 60, color: lineColor(1) },
    ]);
  });

  it('puts items missing from the colour order after the known ones', () => {
    const data = toLineChartData({ Owl: { '2026-W47': 1 }, Bee: { '2026-W47': 0 } }, ['Bee']);
    expect(data.series.map((line) => [line.label, line.hue])).toEqual([
      ['Bee', 0],
      ['Owl', 60],
    ]);
  });

  it('lists overall sales highest first, ties by name', () => {
    expect(overallSales({ Bee: 3, Raccoon: 14, Owl: 3, Snail: 0 })).toEqual([
      { name: 'Raccoon', sold: 14 },
      { name: 'Bee', sold: 3 },
      { name: 'Owl', sold: 3 },
      { name: 'Snail', sold: 0 },
    ]);
  });

  it('draws revenue as one green line over the days, oldest first', () => {
    const data = toRevenueChartData(
      { '2026-11-21': 52.81, '2026-11-19': 0, '2026-11-20': 10.75 },
      'Revenue (USD)',
    );
    expect(data.labels).toEqual(['2026-11-19', '2026-11-20', '2026-11-21']);
    expect(data.series).toEqual([
      { label: 'Revenue (USD)', data: [0, 10.75, 52.81], hue: 120, color: 'hsl(120, 70%, 42%)' },
    ]);
  });

  it('adds amounts up to the cent', () => {
    expect(sumAmounts([0.1, 0.2])).toBe(0.3);
    expect(sumAmounts([5.53, 47.28, 0])).toBe(52.81);
    expect(sumAmounts([])).toBe(0);
  });
});
