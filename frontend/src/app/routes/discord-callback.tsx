import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';

import { CheckCircleIcon } from '@/components/ui/icons';
import { StateMessage } from '@/components/ui/state-message';
import { paths } from '@/config/paths';
import { useExchangeDiscordCode } from '@/features/checkout/api/link-discord';
import type { CheckoutNotice } from '@/features/checkout/components/checkout-view';
import { useDiscordLinkStore } from '@/features/checkout/stores/discord-link-store';
import {
  forgetDiscordReturn,
  rememberedDiscordReturn,
} from '@/features/checkout/utils/discord-return';
import { ApiError } from '@/lib/api-client';

import type { CheckoutLocationState } from './checkout';
import type { ProductLocationState } from './product';
import './discord-callback.css';

/** The server's reason when it gave one (400, 422), else the spec's connection error. */
function failureMessage(t: TFunction<'pages'>, error: unknown): string {
  if (error instanceof ApiError && error.status > 0) {
    const body = error.body as { message?: unknown } | undefined;
    if (typeof body?.message === 'string' && body.message) return body.message;
  }
  return t('discord.connectionFailed');
}

/**
 * Discord sends the shopper back here with ?code=…&state=…: the server exchanges the code and
 * keeps the account in the session; this browser remembers it for display. Every outcome
 * returns to /checkout, which shows what happened, or to the page that asked for the link (a
 * drop's page remembers itself before leaving), which then shows it.
 */
export function DiscordCallbackRoute() {
  const { t } = useTranslation('pages');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const exchange = useExchangeDiscordCode();
  // A code works once: never send it twice (StrictMode runs effects twice in development).
  const started = useRef(false);
  // Where to return, read once (a safe same-site path, else none: the checkout).
  const [returnTo] = useState(rememberedDiscordReturn);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Used once: a later link from the checkout returns to the checkout.
    forgetDiscordReturn();
    const back = (notice: CheckoutNotice) => {
      if (returnTo) {
        void navigate(returnTo, {
          replace: true,
          state: { discordNotice: notice } satisfies ProductLocationState,
        });
        return;
      }
      void navigate(paths.checkout.getHref(), {
        replace: true,
        state: { checkoutNotice: notice } satisfies CheckoutLocationState,
      });
    };

    const code = params.get('code');
    if (!code) {
      back({ tone: 'error', message: t('discord.noCode') });
      return;
    }
    exchange
      .mutateAsync({ code, state: params.get('state') })
      .then((identity) => {
        if (!identity?.discord_id) {
          back({ tone: 'error', message: t('discord.noUserId') });
          return;
        }
        useDiscordLinkStore.getState().setIdentity(identity);
        back({
          tone: 'success',
          message: t('discord.linked', { username: identity.username }),
        });
      })
      .catch((error: unknown) => back({ tone: 'error', message: failureMessage(t, error) }));
  }, [exchange, navigate, params, returnTo, t]);

  return (
    <div className="container discord-callback-page">
      <title>{t('common.pageTitle', { ns: 'translation', title: t('discord.pageTitle') })}</title>
      <div aria-busy="true">
        <StateMessage
          role="status"
          headingLevel={1}
          icon={<CheckCircleIcon size={28} />}
          title={t('discord.title')}
          description={returnTo ? t('discord.backWhereYouWere') : t('discord.backToCheckout')}
        />
      </div>
    </div>
  );
}
