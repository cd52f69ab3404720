import { Link } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { CardIcon, CartIcon, SproutIcon } from '@/components/ui/icons';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

import './how-it-works.css';

const STEPS = [
  {
    icon: <CartIcon size={26} />,
    title: 'Select a product',
    text: 'Browse pets, Sheckles, bundles and exclusives, and add what you want to your cart. You can change quantities any time before you pay.',
  },
  {
    icon: <CardIcon size={26} />,
    title: 'Pay the invoice',
    text: 'At checkout, enter your Roblox username and e-mail address, link your Discord account, and pay by card on the secure payment page.',
  },
  {
    icon: <SproutIcon size={26} />,
    title: 'Receive the product',
    text: (
      <>
        A member of our staff meets you in a private server and hands the items over in game. This
        usually takes <DeliveryTime />.
      </>
    ),
  },
];

export function HowItWorksRoute() {
  const invite = useDiscordInvite();
  return (
    <ContentLayout
      title="How it works"
      intro="Buying from Garden Shop takes three steps. Every order is delivered by a real person from our team, inside the game."
    >
      <ol className="steps">
        {STEPS.map((step, index) => (
          <li key={step.title} className="steps__item">
            <div className="steps__icon">{step.icon}</div>
            <p className="steps__number">Step {index + 1}</p>
            <h2 className="steps__title">{step.title}</h2>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>

      <h2>Delivery, step by step</h2>
      <p>
        Items in Grow a Garden cannot be sent by mail or code, so our staff deliver every order by
        hand. Once your payment has gone through:
      </p>
      <ol>
        <li>
          <strong>Follow your order.</strong> Its page, linked after payment and in your receipt,
          shows your place in the delivery queue and updates by itself.
        </li>
        {invite ? (
          <li>
            <strong>
              Join <ExternalLink href={invite}>our Discord server</ExternalLink>.
            </strong>{' '}
            Use the Discord account you linked at checkout, so staff can reach you there.
          </li>
        ) : (
          <li>
            <strong>Questions while you wait?</strong>{' '}
            <HelpChatButton>Ask us in the help chat</HelpChatButton>.
          </li>
        )}
        <li>
          <strong>Join the private server.</strong> When a member of staff picks up your order, your
          order page shows their name and a link to their private Grow a Garden server. Join it with
          the Roblox account whose username you gave at checkout, then press &ldquo;I&apos;m in the
          game&rdquo;.
        </li>
        <li>
          <strong>Get your items.</strong> A member of staff meets you in the game and hands over
          everything you ordered. Stay in the server until they tell you the delivery is complete.
        </li>
      </ol>
      <p className="callout">
        Delivery usually takes <DeliveryTime />. When many orders come in at once, staff deliver
        them in turn; your order page shows your place in the queue.
      </p>

      <h2>Before you buy</h2>
      <ul>
        <li>
          Double-check your Roblox username and e-mail address: we deliver to exactly what you
          enter.
        </li>
        <li>
          Our staff will never ask for your Roblox password or ask you to give them an item first.
        </li>
        <li>If you are under 18, ask a parent or guardian before paying.</li>
      </ul>

      <p>
        <Link to={paths.home.getHref()} className={buttonClassName()}>
          Start shopping
        </Link>
      </p>
    </ContentLayout>
  );
}
