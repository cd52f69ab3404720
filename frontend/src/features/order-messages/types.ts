import type { Schemas } from '@/types/api';

/** One message between an order's buyer and staff: `from` "buyer" or "staff", its author's name. */
export type OrderMessage = Schemas['OrderMessageResponse'];

/** The most characters a message takes (the server trims, then refuses more with a 422). */
export const MESSAGE_MAX_CHARS = 1000;

/** The one-tap message of a buyer who cannot get into the member of staff's private server. */
export const CANNOT_JOIN_TEXT = "I can't join the server";
