import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { AskUs } from '@/app/ask-us';
import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { DeliverySteps } from '@/features/checkout/components/delivery-steps';
import { useSite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';
import type { Site } from '@/types/api';

import './faq.css';

type Question = { key: string; question: string; answer: ReactNode };

/** Safety: what staff never ask for, and where to report who does. */
function SafeAnswer({ t, invite }: { t: TFunction<'info'>; invite: string | null }) {
  return (
    <>
      <p>{t('faq.safe')}</p>
      <p>
        {invite ? (
          <Trans
            t={t}
            i18nKey="faq.safeNeverDiscord"
            components={{ server: <ExternalLink href={invite} /> }}
          />
        ) : (
          <Trans
            t={t}
            i18nKey="faq.safeNeverChat"
            components={{ chat: <HelpChatButton>{''}</HelpChatButton> }}
          />
        )}
      </p>
    </>
  );
}

/** The answers; the shop's Discord invite (none: the help chat stands in for it) and script. */
const questions = (t: TFunction<'info'>, site: Site | undefined): Question[] => {
  const invite = site?.discord_invite_url ?? null;
  const steps = site?.delivery_steps;
  return [
    {
      key: 'payment',
      question: t('faq.paymentQ'),
      answer: <p>{t('faq.payment')}</p>,
    },
    {
      key: 'safe',
      question: t('faq.safeQ'),
      answer: <SafeAnswer t={t} invite={invite} />,
    },
    {
      key: 'buy',
      question: t('faq.buyQ'),
      answer: (
        <>
          <p>{t('faq.buy')}</p>
          {steps ? (
            <DeliverySteps
              steps={steps}
              title={t('how.afterYouPay')}
              level={3}
              estimateMinutes={site?.delivery_minutes}
            />
          ) : null}
          <p>
            <Link to={paths.howItWorks.getHref()}>{t('faq.buyHow')}</Link>
          </p>
        </>
      ),
    },
    {
      key: 'delivery',
      question: t('faq.deliveryQ'),
      answer: (
        <p>
          <Trans t={t} i18nKey="faq.delivery" components={{ time: <DeliveryTime /> }} />
        </p>
      ),
    },
    {
      key: 'returns',
      question: t('faq.returnsQ'),
      answer: (
        <p>
          <Trans
            t={t}
            i18nKey="faq.returns"
            components={{ refunds: <Link to={paths.refundPolicy.getHref()} /> }}
          />
        </p>
      ),
    },
    { key: 'account', question: t('faq.accountQ'), answer: <p>{t('faq.account')}</p> },
    { key: 'dupe', question: t('faq.dupeQ'), answer: <p>{t('faq.dupe')}</p> },
    { key: 'roblox', question: t('faq.robloxQ'), answer: <p>{t('faq.roblox')}</p> },
    { key: 'under18', question: t('faq.under18Q'), answer: <p>{t('faq.under18')}</p> },
  ];
};

export function FaqRoute() {
  const { t } = useTranslation('info');
  const site = useSite().data;
  return (
    <ContentLayout title={t('faq.title')} intro={t('faq.intro')}>
      <div className="faq">
        {questions(t, site).map(({ key, question, answer }) => (
          <details key={key} className="faq__item">
            <summary className="faq__question">{question}</summary>
            <div className="faq__answer">{answer}</div>
          </details>
        ))}
      </div>
      <p>
        <Trans t={t} i18nKey="faq.still" components={{ ask: <AskUs /> }} />
      </p>
    </ContentLayout>
  );
}
