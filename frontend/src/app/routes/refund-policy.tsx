import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';

export function RefundPolicyRoute() {
  const invite = useDiscordInvite();
  return (
    <ContentLayout
      title="Refund Policy"
      intro="Our items are digital and delivered by hand, so refunds work differently from a regular shop."
    >
      <h2>Completed purchases</h2>
      <p className="callout">
        We do not offer refunds for completed purchases. Once your items have been delivered in
        game, the order is final.
      </p>
      <p>
        This also applies when you change your mind after delivery, when you no longer play, or when
        the game&apos;s developers later change how an item works.
      </p>

      <h2>When you do get a refund</h2>
      <p>
        If your order was not delivered because of an error on our side, for example we ran out of
        the item after you paid or our staff could not complete the delivery, we refund the full
        amount you paid to the card you used.
      </p>

      <h2>Your part: correct details</h2>
      <p>
        You must give us a correct Roblox username, e-mail address and Discord account at checkout,
        and join{' '}
        {invite ? (
          <>
            <ExternalLink href={invite}>our Discord server</ExternalLink> and{' '}
          </>
        ) : null}
        the private server from your order page when asked. We are not able to refund an order that
        could not be delivered because the details were wrong, or because you did not join to
        receive it.
      </p>

      <h2>Items with a dupe warning</h2>
      <p>
        Some pets may be falsely flagged as a dupe by the game after delivery. We warn you before
        you add them to your cart, and a flag placed by the game after delivery is not a reason for
        a refund.
      </p>

      <h2>How to ask for a refund</h2>
      <ol>
        <li>
          {invite ? (
            <>
              Open a ticket on <ExternalLink href={invite}>our Discord server</ExternalLink>.
            </>
          ) : (
            <>
              <HelpChatButton>Ask us in the help chat</HelpChatButton>.
            </>
          )}
        </li>
        <li>Give your order number and the e-mail address you used at checkout.</li>
        <li>Tell us what went wrong. Staff check the delivery record and answer you there.</li>
      </ol>
      <p>
        Approved refunds are sent to the original card. Your bank may take 5 to 10 business days to
        show the money back on your statement.
      </p>
    </ContentLayout>
  );
}
