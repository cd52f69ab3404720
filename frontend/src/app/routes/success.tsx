import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';

import { buttonClassName } from '@/components/ui/button';
import { CheckCircleIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useUser } from '@/features/auth/hooks/use-user';
import { useCartStore } from '@/features/cart/stores/cart-store';
import { HelpChatButton } from '@/features/chat/components/help-chat-button';
import { NextSteps } from '@/features/checkout/components/next-steps';
import { OrderStatusCard } from '@/features/checkout/components/order-status';
import { useConfetti } from '@/features/checkout/hooks/use-confetti';
import { orderIdFrom } from '@/features/checkout/utils/order-id';
import { rememberedOrderKey } from '@/features/checkout/utils/order-key';
import { useDiscordInvite } from '@/features/site/api/get-site';
import { DeliveryTime } from '@/features/site/components/delivery-time';

import './success.css';

/**
 * Where the payment provider returns the buyer. It confirms nothing itself: it clears the cart,
 * celebrates, and shows the order's status as the server knows it.
 */
export function SuccessRoute() {
  const [params] = useSearchParams();
  const orderId = orderIdFrom(params);
  // the key of the order's link: in the return URL, or kept by this tab at checkout; without
  // it the page still opens in this browser, whose session placed the order
  const orderKey = params.get('key') ?? (orderId !== null ? rememberedOrderKey(orderId) : null);
  const { isLoggedIn } = useUser();
  const discordInviteUrl = useDiscordInvite();
  useConfetti();

  useEffect(() => {
    // The cart and its saved copy (localStorage cartItems) are emptied.
    useCartStore.getState().clear();
  }, []);

  return (
    <div className="container result-page">
      <title>Payment Successful · Garden Shop</title>
      <div className="result-page__hero result-page__hero--success">
        <div className="result-page__icon" aria-hidden="true">
          <CheckCircleIcon size={36} />
        </div>
        <h1 className="result-page__title">Payment Successful</h1>
        <p className="result-page__lead">
          {orderId !== null
            ? 'Thank you for your order! Its status is below: staff start delivering once it reads Paid.'
            : 'Thank you for your order! We mail your receipt and staff start delivering once your payment is confirmed.'}
        </p>
      </div>
      {orderId !== null ? (
        <OrderStatusCard
          orderId={orderId}
          helpChat={<HelpChatButton>ask us in the help chat</HelpChatButton>}
        />
      ) : null}
      <NextSteps
        discordInviteUrl={discordInviteUrl}
        helpChat={<HelpChatButton>Ask us in the help chat</HelpChatButton>}
        deliveryTime={<DeliveryTime />}
      />
      <div className="result-page__actions">
        {orderId !== null ? (
          <Link
            to={paths.order.getHref(orderId, orderKey)}
            className={buttonClassName({ variant: 'secondary' })}
          >
            Follow your order
          </Link>
        ) : null}
        {isLoggedIn ? (
          <Link to={paths.profile.getHref()} className={buttonClassName({ variant: 'secondary' })}>
            See my orders
          </Link>
        ) : null}
        <Link to={paths.home.getHref()} className={buttonClassName()}>
          Back to the shop
        </Link>
      </div>
    </div>
  );
}
