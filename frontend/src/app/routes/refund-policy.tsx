import type { TFunction } from 'i18next';
import { Trans, useTranslation } from 'react-i18next';

import { AskUs } from '@/app/ask-us';
import { Skeleton } from '@/components/ui/skeleton';
import { ContentLayout } from '@/components/layouts/content-layout';
import { useRefundPolicy } from '@/features/site/api/get-refund-policy';
import { errorMessage } from '@/lib/api-client';
import { currentLanguage } from '@/lib/i18n/format';

/**
 * The version of the policy the message files translate (src/locales/<lang>/info.json,
 * `refund.translated`): the server's words are the policy of record, in English; another
 * language shows this translation while the server serves this version, else the English.
 */
export const TRANSLATED_REFUND_POLICY = '2026-11-01';

type Policy = { intro: string; sections: { heading: string; text: string }[] };

/** The translation of `TRANSLATED_REFUND_POLICY`, section by section in the server's order. */
function translatedPolicy(t: TFunction<'info'>): Policy {
  return {
    intro: t('refund.translated.intro'),
    sections: [
      { heading: t('refund.translated.completedTitle'), text: t('refund.translated.completed') },
      { heading: t('refund.translated.whenTitle'), text: t('refund.translated.when') },
      { heading: t('refund.translated.detailsTitle'), text: t('refund.translated.details') },
      { heading: t('refund.translated.dupeTitle'), text: t('refund.translated.dupe') },
      { heading: t('refund.translated.askTitle'), text: t('refund.translated.ask') },
      { heading: t('refund.translated.moneyTitle'), text: t('refund.translated.money') },
    ],
  };
}

/** Where to ask for a refund: the Discord server when the shop has one, else the help chat. */
function Contact() {
  const { t } = useTranslation('info');
  return (
    <>
      <h2>{t('refund.contactTitle')}</h2>
      <p>
        <AskUs />.
      </p>
    </>
  );
}

/**
 * The refund policy as the server keeps it (GET /api/refund-policy): the checkout links this
 * page beside Complete Payment and every order records the version it was placed under.
 */
export function RefundPolicyRoute() {
  const { t, i18n } = useTranslation('info');
  const policy = useRefundPolicy();
  const data = policy.data;
  const english = (i18n.resolvedLanguage ?? 'en') === 'en';
  const translated =
    !english && data?.version === TRANSLATED_REFUND_POLICY && data.sections.length === 6;
  const shown: Policy | undefined = translated ? translatedPolicy(t) : data;
  const effective = new Intl.DateTimeFormat(currentLanguage(), {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  return (
    <ContentLayout title={t('refund.title')} intro={shown?.intro ?? t('refund.introLoading')}>
      {data && shown ? (
        <>
          <p className="content-meta" data-testid="refund-policy-version">
            <Trans
              t={t}
              i18nKey="refund.effective"
              values={{
                date: effective.format(new Date(`${data.version}T00:00:00Z`)),
                version: data.version,
              }}
              components={{ time: <time dateTime={data.version} /> }}
            />{' '}
            {english ? null : translated ? t('refund.ofRecord') : t('refund.englishOnly')}
          </p>
          {shown.sections.map((section) => (
            <section key={section.heading} aria-label={section.heading}>
              <h2>{section.heading}</h2>
              <p>{section.text}</p>
            </section>
          ))}
        </>
      ) : policy.error ? (
        <p role="alert">{t('refund.failed', { reason: errorMessage(policy.error) })}</p>
      ) : (
        <Skeleton height="12rem" />
      )}
      <Contact />
    </ContentLayout>
  );
}
