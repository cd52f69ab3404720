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

/**
 * `T` with the keys `K` always there: the server sends them on every answer (`null` when empty),
 * where the document (utoipa, from Rust `Option`s) only says they may be left out or null.
 */
export type WithRequired<T, K extends keyof T> = Omit<T, K> & Required<Pick<T, K>>;

/** Who wrote a chat message (the document says `string`; these are the values it lists). */
export type ChatSenderType = 'admin' | 'super_admin' | 'user' | 'guest' | 'system' | 'bot';

export type ChatMessage = Omit<Schemas['MessageJson'], 'sender_type'> & {
  sender_type: ChatSenderType;
};

export type ChatStatus = 'ai' | 'pending' | 'connected' | 'closed';

/**
 * A help chat as the shopper's and the staff's calls return it. `user` is null for a guest;
 * `accepted_by` null while nobody joined (staff get the member of staff's user id, a shopper
 * their display name, never a staff id); `messages` only where the call says so (start, history,
 * one staff chat).
 */
export type Chat = Omit<
  WithRequired<Schemas['ChatJson'], 'user' | 'accepted_by' | 'accepted_by_name'>,
  'status' | 'messages'
> & {
  status: ChatStatus;
  messages?: ChatMessage[];
};
