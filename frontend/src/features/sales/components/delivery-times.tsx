import { useId, type ReactNode } from 'react';

import { secondsAsMinutesLabel } from '@/lib/duration';

import type { DeliverySteps, DeliveryStats, StepTimes } from '@/features/sales/api/get-sales-stats';

import './delivery-times.css';

const STEPS: { key: keyof DeliverySteps; label: string }[] = [
  { key: 'paid_to_claimed', label: 'Paid → claimed' },
  { key: 'claimed_to_delivered', label: 'Claimed → delivered' },
  { key: 'paid_to_delivered', label: 'Paid → delivered' },
];

/** A day of `by_day` ("2026-11-26") as "Nov 26, 2026": a calendar date, so no time zone moves it. */
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

function formatDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(day.getTime()) ? date : dayFormat.format(day);
}

/** "4 min", "1 h 5 min"; "—" where there is nothing to measure. */
export function durationCell(seconds: number | null): string {
  return seconds === null ? '—' : secondsAsMinutesLabel(seconds);
}

type StepsTableRow = DeliverySteps & { key: string; name: ReactNode; delivered: number };

/**
 * One row per day or member of staff: how many deliveries, and the median and p90 of each step.
 * It scrolls sideways on a phone (eight columns do not fit 375 px), within its own frame.
 */
function StepsTable({
  caption,
  firstColumn,
  rows,
}: {
  caption: string;
  firstColumn: string;
  rows: StepsTableRow[];
}) {
  const captionId = useId();
  return (
    <div className="delivery-times__scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="delivery-table">
        <caption id={captionId} className="delivery-table__caption">
          {caption}
        </caption>
        <colgroup span={2} />
        {STEPS.map((step) => (
          <colgroup key={step.key} span={2} className="delivery-table__step" />
        ))}
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              {firstColumn}
            </th>
            <th scope="col" rowSpan={2} className="delivery-table__number">
              Delivered
            </th>
            {STEPS.map((step) => (
              <th key={step.key} scope="colgroup" colSpan={2} className="delivery-table__group">
                {step.label}
              </th>
            ))}
          </tr>
          <tr>
            {STEPS.map((step) => [
              <th key={`${step.key}-median`} scope="col" className="delivery-table__number">
                Median
              </th>,
              <th key={`${step.key}-p90`} scope="col" className="delivery-table__number">
                p90
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              <td className="delivery-table__number">{row.delivered}</td>
              {STEPS.map((step) => {
                const times: StepTimes = row[step.key];
                return [
                  <td key={`${step.key}-median`} className="delivery-table__number">
                    {durationCell(times.median_seconds)}
                  </td>,
                  <td key={`${step.key}-p90`} className="delivery-table__number">
                    {durationCell(times.p90_seconds)}
                  </td>,
                ];
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * "Delivery times": the shop's promise, then how long each step took (paid → claimed →
 * delivered), per day and per member of staff. Tables, so the numbers can be read exactly.
 */
export function DeliveryTimes({ delivery }: { delivery: DeliveryStats }) {
  const titleId = useId();
  return (
    <section className="delivery-times" aria-labelledby={titleId}>
      <div className="delivery-times__head">
        <h3 id={titleId} className="delivery-times__title">
          Delivery times
        </h3>
        <p className="delivery-times__promise">
          Promise: usually under <strong>{delivery.estimate_minutes} minutes</strong>
        </p>
      </div>
      {delivery.by_day.length === 0 ? (
        <p className="delivery-times__empty">No deliveries in the last 30 days.</p>
      ) : (
        <StepsTable
          caption="Per day (last 30 days)"
          firstColumn="Date"
          rows={delivery.by_day.map((day) => ({
            ...day,
            key: day.date,
            name: <time dateTime={day.date}>{formatDay(day.date)}</time>,
          }))}
        />
      )}
      {delivery.by_staff.length === 0 ? (
        <p className="delivery-times__empty">No deliveries by staff yet.</p>
      ) : (
        <StepsTable
          caption="Per staff member"
          firstColumn="Staff"
          rows={delivery.by_staff.map((staff, index) => ({
            ...staff,
            key: `${index}-${staff.staff_name}`,
            name: staff.staff_name,
          }))}
        />
      )}
    </section>
  );
}
