import { Trans, useTranslation } from 'react-i18next';
import { Button, buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { DISCORD_AUTHORIZE_URL } from '@/features/checkout/api/link-discord';
import type { DiscordIdentity } from '@/features/checkout/types';
import { forgetDiscordReturn } from '@/features/checkout/utils/discord-return';

type DiscordLinkProps = {
  identity: DiscordIdentity | null;
  onUnlink: () => void;
  unlinking: boolean;
  /** Why the checkout needs it linked (Complete Payment without it, or the server's 422). */
  error?: string;
  /** The shop's Discord invite (null: none, and the words say nothing of a server). */
  invite: string | null;
};

/** 'Link Discord' (off to Discord's authorization page), or the linked account with Unlink. */
export function DiscordLink({ identity, onUnlink, unlinking, error, invite }: DiscordLinkProps) {
  const { t } = useTranslation();
  return (
    <section
      className={error ? 'discord-link discord-link--invalid' : 'discord-link'}
      aria-labelledby="discord-link-title"
    >
      <h3 id="discord-link-title" className="form-field__label">
        Discord
      </h3>
      {identity ? (
        <div className="discord-link__linked">
          {identity.avatar ? (
            <img className="discord-link__avatar" src={identity.avatar} alt="" />
          ) : (
            <span className="discord-link__avatar discord-link__avatar--initial" aria-hidden="true">
              {identity.username.charAt(0).toUpperCase()}
            </span>
          )}
          <p className="discord-link__who">
            <span className="discord-link__status">{t('checkout.discord.linkedAs')}</span>
            <span className="discord-link__name" data-testid="discord-username">
              {identity.username}
            </span>
          </p>
          <Button variant="secondary" size="sm" loading={unlinking} onClick={onUnlink}>
            {t('checkout.discord.unlink')}
          </Button>
        </div>
      ) : (
        <div className="discord-link__unlinked">
          <p className="form-field__hint">
            {invite ? (
              <Trans
                i18nKey="checkout.discord.whyWithServer"
                components={{ server: <ExternalLink href={invite} /> }}
              />
            ) : (
              t('checkout.discord.why')
            )}
          </p>
          <a
            href={DISCORD_AUTHORIZE_URL}
            // returns to the checkout, even after an unfinished link from a drop's page
            onClick={forgetDiscordReturn}
            className={buttonClassName({ fullWidth: true })}
            aria-describedby={error ? 'discord-link-error' : undefined}
          >
            {t('checkout.discord.link')}
          </a>
          {error ? (
            <p id="discord-link-error" className="form-field__error">
              {error}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
