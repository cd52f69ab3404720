import { Trans, useTranslation } from 'react-i18next';

import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite, useSite } from '@/features/site/api/get-site';

export function PrivacyPolicyRoute() {
  const { t } = useTranslation('info');
  const invite = useDiscordInvite();
  const retentionDays = useSite().data?.evidence_retention_days;
  const strong = <strong />;
  return (
    <ContentLayout title={t('privacy.title')} intro={t('privacy.intro')}>
      <h2>{t('privacy.collectTitle')}</h2>
      <ul>
        <li>
          <Trans t={t} i18nKey="privacy.collectName" components={{ strong }} />
        </li>
        <li>
          <Trans t={t} i18nKey="privacy.collectIp" components={{ strong }} />
        </li>
        <li>
          <Trans t={t} i18nKey="privacy.collectRoblox" components={{ strong }} />
        </li>
      </ul>

      <h2>{t('privacy.cardTitle')}</h2>
      <p>{t('privacy.card')}</p>

      <h2>{t('privacy.neverTitle')}</h2>
      <p className="callout">{t('privacy.neverSell')}</p>
      <p>{t('privacy.share')}</p>
      <p>{t('privacy.dispute')}</p>

      <h2>{t('privacy.cookiesTitle')}</h2>
      <p>{t('privacy.cookies')}</p>

      <h2>{t('privacy.keepTitle')}</h2>
      <p>{t('privacy.keep')}</p>
      <p data-testid="evidence-retention">
        {retentionDays === undefined
          ? t('privacy.exceptionMonths')
          : t('privacy.exception', { count: retentionDays })}
      </p>

      <h2>{t('privacy.childrenTitle')}</h2>
      <p>{t('privacy.children')}</p>

      <h2>{t('privacy.choicesTitle')}</h2>
      <p>
        {invite ? (
          <Trans
            t={t}
            i18nKey="privacy.choicesDiscord"
            components={{ server: <ExternalLink href={invite} /> }}
          />
        ) : (
          <Trans
            t={t}
            i18nKey="privacy.choicesChat"
            components={{ chat: <HelpChatButton>{''}</HelpChatButton> }}
          />
        )}
      </p>
    </ContentLayout>
  );
}
