import { Link } from 'react-router';

import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

export function TermsRoute() {
  const invite = useDiscordInvite();
  return (
    <ContentLayout
      title="Terms of Service"
      intro="The rules for buying from Garden Shop. By placing an order you agree to them."
    >
      <h2>1. Who we are</h2>
      <p>
        Garden Shop sells digital items for the Roblox game Grow a Garden: pets, Sheckles (the
        in-game currency), bundles and exclusives. We are an independent shop, not affiliated with,
        endorsed by or sponsored by Roblox Corporation or the developers of Grow a Garden.
      </p>

      <h2>2. Who can buy</h2>
      <p>
        You must be old enough to make a purchase where you live, or have permission from a parent
        or guardian who agrees to these terms for you. Anyone paying with a card must be its holder
        or be allowed by the holder to use it.
      </p>

      <h2>3. What you are buying</h2>
      <p>
        Our products exist only inside Grow a Garden. They have no cash value outside the game and
        cannot be exchanged for money. The game&apos;s developers can change how items, pets or
        currencies work at any time; we cannot control or undo such changes.
      </p>
      <p>
        Some pets carry a dupe warning: after delivery, the game may falsely flag them as a
        duplicate. We tell you before you add such a product to your cart, and by going ahead you
        accept this risk.
      </p>

      <h2>4. Prices and payment</h2>
      <ul>
        <li>Prices are in US dollars and are shown on each product.</li>
        <li>
          You pay by card through our payment provider, Stripe. A card processing fee is shown as
          its own line at checkout before you pay.
        </li>
        <li>
          Promo codes are applied at checkout, may have an expiry date, and can be used once per
          Discord account.
        </li>
        <li>
          Prices and stock can change. The price you see at checkout is the price you pay; if it
          changed while you were shopping, checkout shows you the new one first.
        </li>
      </ul>

      <h2>5. Delivery</h2>
      <p>
        Delivery is done by hand by our staff in a private Grow a Garden server, usually in{' '}
        <DeliveryTime />. To receive your order you need to join the private server from your order
        page with the Roblox account you named at checkout
        {invite ? (
          <>
            , and join <ExternalLink href={invite}>our Discord server</ExternalLink> when asked
          </>
        ) : null}
        .
      </p>
      <p>
        You are responsible for giving a correct Roblox username, e-mail address and Discord
        account. We cannot deliver to a mistyped or different account, and an order delivered to the
        details you entered counts as delivered.
      </p>

      <h2>6. Refunds</h2>
      <p>
        Completed purchases are not refundable. If we could not deliver because of a mistake on our
        side, you get your money back. The details are in our{' '}
        <Link to={paths.refundPolicy.getHref()}>Refund Policy</Link>.
      </p>

      <h2>7. Fair use</h2>
      <p>
        Do not use the shop for fraud, including payments with someone else&apos;s card without
        permission and chargebacks for orders that were delivered. Treat our staff with respect. We
        may refuse or cancel orders, and close accounts, that break these rules.
      </p>

      <h2>8. Your Roblox account</h2>
      <p>
        You remain bound by the Roblox Terms of Use and the rules of Grow a Garden. We are not
        responsible for actions that Roblox or the game&apos;s developers take on your account.
      </p>

      <h2>9. Liability</h2>
      <p>
        We do our best to keep the shop available and every delivery correct. As far as the law
        allows, our liability for any order is limited to the amount you paid for it.
      </p>

      <h2>10. Changes and contact</h2>
      <p>
        We may update these terms; the version on this page applies to orders placed while it is
        shown. Questions?{' '}
        {invite ? (
          <>
            Open a ticket on <ExternalLink href={invite}>our Discord server</ExternalLink>.
          </>
        ) : (
          <>
            <HelpChatButton>Ask us in the help chat</HelpChatButton>.
          </>
        )}
      </p>
    </ContentLayout>
  );
}
