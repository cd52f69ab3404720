import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { AskUs } from '@/app/ask-us';
import { buttonClassName } from '@/components/ui/button';
import { CardIcon, CartIcon, SproutIcon } from '@/components/ui/icons';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { DeliverySteps } from '@/features/checkout/components/delivery-steps';
import { useSite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

import './how-it-works.css';

function shopSteps(t: TFunction<'info'>) {
  return [
    {
      key: 'select',
      icon: <CartIcon size={26} />,
      title: t('how.selectTitle'),
      text: t('how.select'),
    },
    {
      key: 'pay',
      icon: <CardIcon size={26} />,
      title: t('how.payTitle'),
      text: t('how.pay'),
    },
    {
      key: 'receive',
      icon: <SproutIcon size={26} />,
      title: t('how.receiveTitle'),
      text: <Trans t={t} i18nKey="how.receive" components={{ time: <DeliveryTime /> }} />,
    },
  ];
}

export function HowItWorksRoute() {
  const { t } = useTranslation('info');
  const site = useSite().data;
  const steps = site?.delivery_steps;
  return (
    <ContentLayout title={t('how.title')} intro={t('how.intro')}>
      <ol className="steps">
        {shopSteps(t).map((step, index) => (
          <li key={step.key} className="steps__item">
            <div className="steps__icon">{step.icon}</div>
            <p className="steps__number">{t('how.step', { number: index + 1 })}</p>
            <h2 className="steps__title">{step.title}</h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>

      <h2>{t('how.deliveryTitle')}</h2>
      <p>{t('how.delivery')}</p>
      {steps ? (
        <DeliverySteps
          steps={steps}
          title={t('how.afterYouPay')}
          level={3}
          estimateMinutes={site?.delivery_minutes}
        />
      ) : null}
      <p className="callout">
        <Trans t={t} i18nKey="how.usually" components={{ time: <DeliveryTime /> }} /> <AskUs />.
      </p>

      <h2>{t('how.beforeTitle')}</h2>
      <ul>
        <li>{t('how.beforeDetails')}</li>
        <li>{t('how.beforePassword')}</li>
        <li>{t('how.beforeUnder18')}</li>
      </ul>

      <p>
        <Link to={paths.home.getHref()} className={buttonClassName()}>
          {t('how.start')}
        </Link>
      </p>
    </ContentLayout>
  );
}
