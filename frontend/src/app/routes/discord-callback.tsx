import { useEffect, useRef, useState } from 'react';
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

export const NO_CODE = 'No code returned from Discord';
export const NO_USER_ID = 'Discord login failed: No user ID returned.';
export const CONNECTION_FAILED = 'Error while connecting to Discord.';

/** The server's reason when it gave one (400, 422), else the spec's connection error. */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status > 0) {
    const body = error.body as { message?: unknown } | undefined;
    if (typeof body?.message === 'string' && body.message) return body.message;
  }
  return CONNECTION_FAILED;
}

/**
 * Discord sends the shopper back here with ?code=…&state=…: the server exchanges the code and
 * keeps the account in the session; this browser remembers it for display. Every outcome
 * returns to /checkout, which shows what happened, or to the page that asked for the link (a
 * drop's page remembers itself before leaving), which then shows it.
 */
export function DiscordCallbackRoute() {
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
      back({ tone: 'error', message: NO_CODE });
      return;
    }
    exchange
      .mutateAsync({ code, state: params.get('state') })
      .then((identity) => {
        if (!identity?.discord_id) {
          back({ tone: 'error', message: NO_USER_ID });
          return;
        }
        useDiscordLinkStore.getState().setIdentity(identity);
        back({ tone: 'success', message: `Discord linked as ${identity.username}.` });
      })
      .catch((error: unknown) => back({ tone: 'error', message: failureMessage(error) }));
  }, [exchange, navigate, params, returnTo]);

  return (
    <div className="container discord-callback-page">
      <title>Linking Discord · Garden Shop</title>
      <div aria-busy="true">
        <StateMessage
          role="status"
          headingLevel={1}
          icon={<CheckCircleIcon size={28} />}
          title="Linking your Discord account…"
          description={
            returnTo
              ? 'One moment, you will be back where you were right away.'
              : 'One moment, you will be back at the checkout right away.'
          }
        />
      </div>
    </div>
  );
}
