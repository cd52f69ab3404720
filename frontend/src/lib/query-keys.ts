/**
 * Every query key of the app, in one place: the queries, the mutations that update or invalidate
 * them and the live events (src/lib/live-events.ts) name a cache only through these. Keys are
 * hierarchical, so invalidating a prefix (`queryKeys.orders.all`) reaches every key under it.
 */
export const queryKeys = {
  site: ['site'] as const,
  refundPolicy: ['refund-policy'] as const,
  session: ['auth', 'session'] as const,
  products: ['products'] as const,
  proofs: ['proofs'] as const,
  discordIdentity: ['discord', 'identity'] as const,
  /** What this session's buyer holds of the capped products (the drops). */
  holdings: ['checkout', 'holdings'] as const,
  profile: {
    all: ['profile'] as const,
    /** Keyed by the user's id, so one user's orders can never show for another. */
    user: (userId: number) => ['profile', userId] as const,
  },
  orders: {
    all: ['orders'] as const,
    order: (id: number) => ['orders', id] as const,
    tracked: (id: number, key: string | null) => ['orders', id, 'tracked', key] as const,
  },
  /** An order's messages between its buyer and staff (apart from `orders`: an order event leaves them). */
  orderMessages: {
    all: ['order-messages'] as const,
    order: (id: number) => ['order-messages', id] as const,
    buyer: (id: number, key: string | null) => ['order-messages', id, 'buyer', key] as const,
    staff: (id: number) => ['order-messages', id, 'staff'] as const,
  },
  reviews: {
    all: ['reviews'] as const,
    list: (productId?: number) => ['reviews', productId ?? 'all'] as const,
  },
  chat: {
    all: ['chat'] as const,
    chat: (chatId: string) => ['chat', chatId] as const,
    history: (chatId: string) => ['chat', chatId, 'history'] as const,
    status: (chatId: string) => ['chat', chatId, 'status'] as const,
  },
  liveChats: {
    all: ['live-chats'] as const,
    list: () => ['live-chats', 'list'] as const,
    filteredList: <S extends string>(status: S) => ['live-chats', 'list', status] as const,
    chat: (chatId: string) => ['live-chats', chatId] as const,
    messages: (chatId: string) => ['live-chats', chatId, 'messages'] as const,
  },
  admin: {
    orders: {
      all: ['admin', 'orders'] as const,
      filtered: <F extends string>(filter: F) => ['admin', 'orders', filter] as const,
    },
    /** Every admin product key starts here, so a session change or a write drops them together. */
    products: ['admin', 'products'] as const,
    /** The saves of the catalog's order (a mutation key): the list is read back after the last. */
    productOrderSaves: ['admin', 'products', 'reorder'] as const,
    standaloneIds: ['admin', 'products', 'standalone'] as const,
    proofChoices: ['admin', 'proof-choices'] as const,
    privateServer: ['admin', 'private-server'] as const,
    salesStats: ['admin', 'sales-stats'] as const,
    promoCodes: ['admin', 'promo-codes'] as const,
    blocklist: ['admin', 'blocklist'] as const,
    disputes: ['admin', 'disputes'] as const,
    fraudWarnings: ['admin', 'fraud-warnings'] as const,
    audit: {
      all: ['admin', 'audit'] as const,
      list: <F extends object>(filters: F) => ['admin', 'audit', filters] as const,
    },
  },
};
