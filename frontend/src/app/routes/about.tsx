import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

export function AboutRoute() {
  const invite = useDiscordInvite();
  return (
    <ContentLayout
      title="About Us"
      intro="Garden Shop is a small team of Grow a Garden players who help others grow the garden they want."
    >
      <h2>What we do</h2>
      <p>
        We sell pets, Sheckles, bundles and exclusives for the Roblox game Grow a Garden at fair
        prices. Instead of spending hours waiting for a rare pet, you pick what you want and we
        bring it to you in the game.
      </p>

      <h2>Fast, hand-delivered orders</h2>
      <p className="callout">
        Every order is delivered by a real member of our staff in a private server. Delivery usually
        takes <DeliveryTime />.
      </p>
      <p>
        After paying, you follow your order on its page: when a member of staff picks it up, you
        join their private server from there and they hand over your items.{' '}
        {invite ? (
          <>
            Join <ExternalLink href={invite}>our Discord server</ExternalLink> so staff can reach
            you there.
          </>
        ) : (
          <>
            Questions? <HelpChatButton>Ask us in the help chat</HelpChatButton>.
          </>
        )}{' '}
        <Link to={paths.howItWorks.getHref()}>See how it works</Link>.
      </p>

      <h2>Why players trust us</h2>
      <ul>
        <li>Secure card payments through Stripe; we never see your card number.</li>
        <li>We never ask for your Roblox password or for you to give us an item first.</li>
        <li>
          Clear rules: if we fail to deliver because of our mistake, you get your money back (see
          our <Link to={paths.refundPolicy.getHref()}>Refund Policy</Link>).
        </li>
        <li>
          Honest warnings: when a pet could be falsely flagged as a dupe by the game, we tell you
          before you buy.
        </li>
      </ul>

      <h2>Not affiliated with Roblox</h2>
      <p>
        Garden Shop is independent and is not affiliated with, endorsed by or sponsored by Roblox
        Corporation or the developers of Grow a Garden.
      </p>

      <p>
        <Link to={paths.home.getHref()} className={buttonClassName()}>
          Browse the shop
        </Link>
      </p>
    </ContentLayout>
  );
}
