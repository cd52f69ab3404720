/** The checkout's data as the server sends and takes it (docs: the checkout contract). */
import type { Schemas, WithRequired } from '@/types/api';

/** A Discord account linked to this browser's session on the server. */
export type DiscordIdentity = WithRequired<Schemas['DiscordIdentity'], 'avatar'>;

/** A cart line as checkout needs it: the product fields of the order payload plus qty. */
export type CheckoutItem = {
  id: number;
  name: string;
  description: string;
  price: number;
  qty: number;
  stock: number | null;
  weight: number | null;
  mutation: string | null;
};

/** The order payload (docs/product.md, Data), for POST /api/stripe/checkout and /api/checkout/paypal. */
export type OrderPayload = {
  discord_id: string;
  email: string;
  roblox_username: string;
  items: CheckoutItem[];
  /** The items' total after the promo discount, before the processing fee, in `currency`. */
  total: number;
  /** The currency the shopper sees and pays in (`GET /api/site`'s `currencies`). */
  currency: string;
  user_id: number | null;
  promo_code?: string;
};

/** Where the browser goes to pay: `url` (card) or `approval_url` (PayPal). */
export type PaymentSession = {
  url?: string | null;
  approval_url?: string | null;
  order_id?: number;
  /** The key of the order's link (`/orders/{id}?key=…`), when the server sends it. */
  order_key?: string | null;
};

/** The cart as the server priced it, sent with a 409 when the prices have changed. */
export type ServerPricedCart = WithRequired<Schemas['PricedCartResponse'], 'discount_percent'>;

export type OrderStatus = Schemas['OrderStatusName'];

export type Order = WithRequired<Schemas['OrderResponse'], 'paid_at'>;
