import { Trans, useTranslation } from 'react-i18next';

import { ExternalLink } from '@/components/ui/external-link';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';

/**
 * Where a shopper asks a question, as words in a sentence: "Ask us on our Discord server" (the
 * invite) where the shop has one, else "Ask us in the help chat" (which opens it).
 */
export function AskUs() {
  const { t } = useTranslation();
  const invite = useDiscordInvite();
  return invite ? (
    <Trans i18nKey="chat.askUsOnDiscord" components={{ server: <ExternalLink href={invite} /> }} />
  ) : (
    <HelpChatButton>{t('chat.askUs')}</HelpChatButton>
  );
}
