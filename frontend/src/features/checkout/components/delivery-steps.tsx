import { ExternalLink } from '@/components/ui/external-link';
import type { Schemas } from '@/types/api';

import './delivery-steps.css';

/** A step of the script from payment to delivery; an order's steps carry `done`. */
export type DeliveryStep = Schemas['DeliveryStep'] & { done?: boolean };

type DeliveryStepsProps = {
  /** The server's script: the shop's (`GET /api/site`) or an order's, marked. */
  steps: DeliveryStep[];
  /** The list's heading. */
  title: string;
  /** The heading's level: 2 on a page of its own, 3 inside a card. */
  level?: 2 | 3;
};

/**
 * The steps a buyer takes after paying, numbered, as the server words them: every page and
 * mail shows the same list. On an order's page the steps it is past are ticked and the first
 * one left is marked as the current one.
 */
export function DeliverySteps({ steps, title, level = 2 }: DeliveryStepsProps) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const current = steps.findIndex((step) => step.done === false);
  return (
    <section className="delivery-steps" aria-labelledby="delivery-steps-title">
      <Heading id="delivery-steps-title" className="delivery-steps__title">
        {title}
      </Heading>
      <ol className="delivery-steps__list" data-testid="delivery-steps">
        {steps.map((step, index) => {
          const state = step.done ? 'done' : index === current ? 'current' : 'todo';
          return (
            <li
              key={step.key}
              className={`delivery-steps__step delivery-steps__step--${state}`}
              data-step={step.key}
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="delivery-steps__number" aria-hidden="true">
                {step.done ? '✓' : index + 1}
              </span>
              <div className="delivery-steps__text">
                <p className="delivery-steps__step-title">
                  <span className="visually-hidden">{index + 1}. </span>
                  <strong>
                    {step.link ? (
                      <ExternalLink href={step.link}>{step.title}</ExternalLink>
                    ) : (
                      step.title
                    )}
                  </strong>
                  {state === 'done' ? <span className="delivery-steps__badge">Done</span> : null}
                  {state === 'current' ? (
                    <span className="delivery-steps__badge delivery-steps__badge--now">Now</span>
                  ) : null}
                </p>
                {step.done ? null : <p className="delivery-steps__detail">{step.detail}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
