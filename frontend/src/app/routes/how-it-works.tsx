import { Link } from 'react-router';

import { AskUs } from '@/app/ask-us';
import { buttonClassName } from '@/components/ui/button';
import { CardIcon, CartIcon, SproutIcon } from '@/components/ui/icons';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { DeliverySteps } from '@/features/checkout/components/delivery-steps';
import { useSite } from '@/features/site/api/get-site';
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
  const steps = useSite().data?.delivery_steps;
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
        hand. Your order has its own page, linked after payment and in your receipt, that shows
        where it is and updates by itself. Once your payment has gone through:
      </p>
      {steps ? <DeliverySteps steps={steps} title="After you pay" level={3} /> : null}
      <p className="callout">
        Delivery usually takes <DeliveryTime />. When many orders come in at once, staff deliver
        them in turn; your order page shows your place in the queue. Questions while you wait?{' '}
        <AskUs />.
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
