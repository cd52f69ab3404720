import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { AskUs } from '@/app/ask-us';
import { ExternalLink } from '@/components/ui/external-link';
import { ContentLayout } from '@/components/layouts/content-layout';
import { paths } from '@/config/paths';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { DeliverySteps, type DeliveryStep } from '@/features/checkout/components/delivery-steps';
import { useSite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

import './faq.css';

type Question = { question: string; answer: ReactNode };

/** The answers; `invite` is the shop's Discord invite (null: the help chat stands in for it). */
const questions = (invite: string | null, steps: DeliveryStep[] | undefined): Question[] => [
  {
    question: 'Which payment methods do you accept?',
    answer: (
      <p>
        We accept payment by debit or credit card. Payments are handled by Stripe, a payment
        provider used by millions of businesses; your card details go straight to Stripe and never
        reach our servers. A small card processing fee is shown as its own line at checkout before
        you pay.
      </p>
    ),
  },
  {
    question: 'Is it safe to buy here?',
    answer: (
      <>
        <p>
          Yes. Card payments run on Stripe&apos;s secure payment page, and every order is delivered
          in a private server by a member of our staff.
        </p>
        <p>
          We will never ask for your Roblox password, your account, or for you to give us an item
          first. If anyone claiming to be Garden Shop staff asks for any of these, do not do it and
          tell us{' '}
          {invite ? (
            <>
              on <ExternalLink href={invite}>our Discord server</ExternalLink>
            </>
          ) : (
            <>
              in the <HelpChatButton>help chat</HelpChatButton>
            </>
          )}
          .
        </p>
      </>
    ),
  },
  {
    question: 'How do I buy?',
    answer: (
      <>
        <p>
          Add the products you want to your cart and press Checkout. Enter your Roblox username and
          e-mail address, link your Discord account and pay by card. Then follow your order on its
          page, linked after payment and in your receipt.
        </p>
        {steps ? <DeliverySteps steps={steps} title="After you pay" level={3} /> : null}
        <p>
          <Link to={paths.howItWorks.getHref()}>See how it works, step by step</Link>
        </p>
      </>
    ),
  },
  {
    question: 'How long does delivery take?',
    answer: (
      <p>
        Most orders are delivered in <DeliveryTime /> after payment. When many orders arrive at
        once, staff deliver them in turn; your order page shows your place in the queue.
      </p>
    ),
  },
  {
    question: 'What is your return policy?',
    answer: (
      <p>
        Because items are digital and delivered by hand, completed purchases cannot be returned or
        refunded. If your order was not delivered because of a mistake on our side, you get your
        money back. Read the full <Link to={paths.refundPolicy.getHref()}>Refund Policy</Link>.
      </p>
    ),
  },
  {
    question: 'Do I need an account to buy?',
    answer: (
      <p>
        No, you can check out as a guest. With an account you can see all your orders and their
        status in one place.
      </p>
    ),
  },
  {
    question: 'What does the dupe warning mean?',
    answer: (
      <p>
        For a few pets, the game may wrongly mark the delivered pet as a duplicate (a
        &ldquo;dupe&rdquo;). We show a warning before you add such a pet to your cart, so you can
        decide before you pay.
      </p>
    ),
  },
  {
    question: 'Are you part of Roblox or Grow a Garden?',
    answer: (
      <p>
        No. Garden Shop is an independent shop and is not affiliated with, endorsed by or sponsored
        by Roblox Corporation or the developers of Grow a Garden.
      </p>
    ),
  },
  {
    question: 'I am under 18. Can I buy?',
    answer: (
      <p>
        Please ask a parent or guardian before you buy, and let them complete the payment with their
        card.
      </p>
    ),
  },
];

export function FaqRoute() {
  const site = useSite().data;
  const invite = site?.discord_invite_url ?? null;
  return (
    <ContentLayout
      title="Frequently asked questions"
      intro="Quick answers about paying, delivery, safety and refunds."
    >
      <div className="faq">
        {questions(invite, site?.delivery_steps).map(({ question, answer }) => (
          <details key={question} className="faq__item">
            <summary className="faq__question">{question}</summary>
            <div className="faq__answer">{answer}</div>
          </details>
        ))}
      </div>
      <p>
        Still have a question? <AskUs /> and a member of staff will answer.
      </p>
    </ContentLayout>
  );
}
