import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

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
  /** The delivery promise in minutes (an order's own, else the shop's), for the waiting step. */
  estimateMinutes?: number | null;
};

/**
 * A step's words in the viewer's language. The server words the script in English (its
 * `title` and `detail`, shown as they are in English); in another language each step is worded
 * by its key, the contract. The Discord step's detail is the one sentence true with or without
 * tickets.
 */
function stepWords(
  t: TFunction<'pages'>,
  step: DeliveryStep,
  minutes: number | null,
): { title: string; detail: string } {
  const wait =
    minutes === null ? t('steps.wait.detailSoon') : t('steps.wait.detail', { count: minutes });
  const words: Record<DeliveryStep['key'], { title: string; detail: string }> = {
    discord: { title: t('steps.discord.title'), detail: t('steps.discord.detail') },
    wait: { title: t('steps.wait.title'), detail: wait },
    join: { title: t('steps.join.title'), detail: t('steps.join.detail') },
    ready: { title: t('steps.ready.title'), detail: t('steps.ready.detail') },
    receive: { title: t('steps.receive.title'), detail: t('steps.receive.detail') },
    review: { title: t('steps.review.title'), detail: t('steps.review.detail') },
  };
  return words[step.key] ?? { title: step.title, detail: step.detail };
}

/**
 * The steps a buyer takes after paying, numbered, as the server words them: every page and
 * mail shows the same list. On an order's page the steps it is past are ticked and the first
 * one left is marked as the current one.
 */
const TICK = '✓';

function stepState(step: DeliveryStep, index: number, current: number) {
  if (step.done) return 'done';
  return index === current ? 'current' : 'todo';
}

export function DeliverySteps({ steps, title, level = 2, estimateMinutes }: DeliveryStepsProps) {
  const { t, i18n } = useTranslation('pages');
  const minutes = estimateMinutes ?? null;
  const english = (i18n.resolvedLanguage ?? 'en') === 'en';
  const Heading = level === 2 ? 'h2' : 'h3';
  const current = steps.findIndex((step) => step.done === false);
  return (
    <section className="delivery-steps" aria-labelledby="delivery-steps-title">
      <Heading id="delivery-steps-title" className="delivery-steps__title">
        {title}
      </Heading>
      <ol className="delivery-steps__list" data-testid="delivery-steps">
        {steps.map((step, index) => {
          const state = stepState(step, index, current);
          const words = english ? step : stepWords(t, step, minutes);
          return (
            <li
              key={step.key}
              className={`delivery-steps__step delivery-steps__step--${state}`}
              data-step={step.key}
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
            >
              <span className="delivery-steps__number" aria-hidden="true">
                {step.done ? TICK : index + 1}
              </span>
              <div className="delivery-steps__text">
                <p className="delivery-steps__step-title">
                  <span className="visually-hidden">{index + 1}. </span>
                  <strong>
                    {step.link ? (
                      <ExternalLink href={step.link}>{words.title}</ExternalLink>
                    ) : (
                      words.title
                    )}
                  </strong>
                  {state === 'done' ? (
                    <span className="delivery-steps__badge">{t('steps.done')}</span>
                  ) : null}
                  {state === 'current' ? (
                    <span className="delivery-steps__badge delivery-steps__badge--now">
                      {t('steps.now')}
                    </span>
                  ) : null}
                </p>
                {step.done ? null : <p className="delivery-steps__detail">{words.detail}</p>}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
