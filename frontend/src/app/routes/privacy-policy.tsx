import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite, useSite } from '@/features/site/api/get-site';

export function PrivacyPolicyRoute() {
  const invite = useDiscordInvite();
  const retentionDays = useSite().data?.evidence_retention_days;
  return (
    <ContentLayout
      title="Privacy Policy"
      intro="What we collect when you use Garden Shop, why, and what we never do with it."
    >
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Your name and e-mail address</strong>, when you create an account or place an
          order, to send you order confirmations and account messages such as verification codes.
        </li>
        <li>
          <strong>Your IP address</strong>, which every website receives, to keep the shop secure
          and stop abuse such as repeated failed logins.
        </li>
        <li>
          <strong>Your Roblox username and Discord account</strong>, when you check out, so our
          staff can deliver your order to the right person.
        </li>
      </ul>

      <h2>Card details</h2>
      <p>
        Payments are processed by our payment provider, Stripe. Your card details go directly to
        Stripe and are never sent to or stored on our servers. We only learn whether a payment
        succeeded.
      </p>

      <h2>What we never do</h2>
      <p className="callout">
        We do not sell your personal data, and we do not share it for advertising.
      </p>
      <p>
        We only share what is needed to run your order: payment information with Stripe and delivery
        details with the staff member who delivers it.
      </p>
      <p>
        If a payment is disputed with your bank, we send Stripe the record of that order so the bank
        can decide: the Roblox and Discord names, the e-mail address, the addresses your order, your
        &ldquo;I&apos;m in the game&rdquo; and your &ldquo;I got my items&rdquo; came from, the
        delivery&apos;s times and pictures, the messages we sent you about it and the refund policy
        you were shown.
      </p>

      <h2>Cookies and storage in your browser</h2>
      <p>
        We use one cookie to keep you logged in. Your cart is saved in your own browser so it is
        still there when you come back; it is not sent to us until you check out.
      </p>

      <h2>How long we keep it</h2>
      <p>
        We keep order records for as long as we need them for delivery, support, accounting and the
        law. You can delete your account and the personal data linked to it from your profile.
      </p>
      <p data-testid="evidence-retention">
        One exception, for our legitimate interest in answering a disputed payment: when you delete
        your account, what a dispute of a recent order needs (the names, the e-mail address and the
        addresses above) is kept apart for{' '}
        {retentionDays === undefined ? 'a few months' : `${retentionDays} days`} after that
        order&apos;s payment, and while a dispute of it is open, then deleted.
      </p>

      <h2>Children</h2>
      <p>
        Many of our customers are young players. If you are under 18, please involve a parent or
        guardian before you buy or share your details with us.
      </p>

      <h2>Your choices</h2>
      <p>
        To see, correct or delete the personal data we hold about you,{' '}
        {invite ? (
          <>
            open a ticket on <ExternalLink href={invite}>our Discord server</ExternalLink>
          </>
        ) : (
          <HelpChatButton>ask us in the help chat</HelpChatButton>
        )}
        . We answer every request.
      </p>
    </ContentLayout>
  );
}
