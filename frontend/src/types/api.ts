/** Entities as the server sends them. Shared by every feature that shows or sells them. */

export type Product = {
  id: number;
  name: string;
  description: string;
  price: number;
  /** Free text, possibly a comma-separated list: "Pets, Exclusives". */
  category: string;
  /** A path on the shop's own host, e.g. "/media/products/9f2c.png". */
  image: string | null;
  /** null = unlimited, 0 = out of stock. */
  stock: number | null;
  weight: number | null;
  mutation: string | null;
  /** The original price; the shopper saves `savings - price`. */
  savings: number | null;
  sort_order: number | null;
  delete_after_out_of_stock: boolean;
  related_ids: number[];
  inventory: number;
  dupe_warning: boolean;
};

export type ApiErrorBody = {
  message: string;
  errors?: Record<string, string[]>;
};

export type Site = {
  name: string;
  reviews_url: string;
  /** PayPal is offered at checkout only when the server has it configured and enabled. */
  paypal_enabled?: boolean;
};

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
