/**
 * Entities as the server sends them. Shared by every feature that shows or sells them. Where the
 * server's OpenAPI document (frontend/openapi.json) has the type, it is an alias of the generated
 * schema (src/types/api.gen.ts, `just api-types`), so the compiler sees any change of the API.
 */
import type { components } from './api.gen';

/** The request and response bodies of the server's OpenAPI document, by schema name. */
export type Schemas = components['schemas'];

/**
 * A product (`GET /api/products`, `GET /api/products/{id}`). `category` is free text, possibly a
 * comma-separated list ("Pets, Exclusives"); `image` a path on the shop's own host; `stock` null =
 * unlimited, 0 = out of stock; `savings` the original price (the shopper saves `savings - price`).
 */
export type Product = Schemas['Product'];

/** Every error answer: the message to show, per-field messages on a 422. */
export type ApiErrorBody = Schemas['ErrorBody'];

/** `GET /api/site`. PayPal is offered at checkout only when `paypal_enabled`. */
export type Site = Schemas['Site'];

/** Who wrote a chat message. */
export type ChatSenderType = 'admin' | 'super_admin' | 'user' | 'guest' | 'system' | 'bot';

export type ChatMessage = {
  id: number;
  message: string;
  sender_type: ChatSenderType;
  /** ISO 8601. */
  created_at: string;
};

export type ChatStatus = 'ai' | 'pending' | 'connected' | 'closed';

/** A help chat as the shopper's and the staff's calls return it. */
export type Chat = {
  /** A UUID. */
  id: string;
  status: ChatStatus;
  /** Missing for a guest. */
  user: { id: number; name: string } | null;
  created_at: string;
  /**
   * Who joined; null while nobody has. Staff get the member of staff's user id, a shopper their
   * display name (never a staff id).
   */
  accepted_by: number | string | null;
  accepted_by_name: string | null;
  has_unread_messages: boolean;
  /** Only where the call says so (start, history, one staff chat). */
  messages?: ChatMessage[];
};
