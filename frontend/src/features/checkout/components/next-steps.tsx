import type { ReactNode } from 'react';

import { ExternalLink } from '@/components/ui/external-link';

import './next-steps.css';

type NextStepsProps = {
  /** The shop's Discord invite; null: the Discord step gives way to the help chat. */
  discordInviteUrl: string | null;
  /** Words that open the help chat ("Ask us in the help chat"). */
  helpChat: ReactNode;
  /** The shop's delivery promise, "under N minutes". */
  deliveryTime: ReactNode;
};

/** What the buyer does after paying: the same steps as the order page and the receipt. */
export function NextSteps({ discordInviteUrl, helpChat, deliveryTime }: NextStepsProps) {
  return (
    <section className="next-steps" aria-labelledby="next-steps-title">
      <h2 id="next-steps-title" className="next-steps__title">
        What happens next
      </h2>
      <ol className="next-steps__list">
        <li>
          <p>
            <strong>Follow your order.</strong> Its page shows your place in the delivery queue and
            updates by itself.
          </p>
        </li>
        <li>
          {discordInviteUrl ? (
            <p>
              <strong>
                Join <ExternalLink href={discordInviteUrl}>our Discord server</ExternalLink>
              </strong>{' '}
              with the account you linked at checkout, so staff can reach you there.
            </p>
          ) : (
            <p>
              <strong>Questions while you wait?</strong> {helpChat}.
            </p>
          )}
        </li>
        <li>
          <p>
            <strong>Join the private server.</strong> When staff pick up your order, its page shows
            a link to their private server in Grow a Garden. Join with your Roblox account and press
            &ldquo;I&apos;m in the game&rdquo;.
          </p>
        </li>
        <li>
          <p>
            <strong>Receive your items.</strong> Delivery usually takes {deliveryTime}.
          </p>
        </li>
      </ol>
    </section>
  );
}
