/** Every route of the shop, in one typed table. Pages that arrive later are listed already so links stay in one place. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  product: { path: '/product/:id', getHref: (id: number | string) => `/product/${id}` },
  checkout: { path: '/checkout', getHref: () => '/checkout' },
  discordCallback: { path: '/discord/callback', getHref: () => '/discord/callback' },
  success: {
    path: '/success',
    getHref: (orderId?: number) => (orderId ? `/success?order_id=${orderId}` : '/success'),
  },
  cancel: {
    path: '/cancel',
    getHref: (orderId?: number) => (orderId ? `/cancel?order_id=${orderId}` : '/cancel'),
  },
  order: {
    path: '/orders/:id',
    getHref: (id: number | string, key?: string | null) =>
      key ? `/orders/${id}?key=${encodeURIComponent(key)}` : `/orders/${id}`,
  },
  reviews: { path: '/reviews', getHref: () => '/reviews' },
  login: { path: '/login', getHref: () => '/login' },
  register: { path: '/register', getHref: () => '/register' },
  verifyEmail: { path: '/verify-email', getHref: () => '/verify-email' },
  forgotPassword: { path: '/forgot-password', getHref: () => '/forgot-password' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  profile: { path: '/profile', getHref: () => '/profile' },
  proofs: { path: '/proofs', getHref: () => '/proofs' },
  adminProducts: { path: '/admin/products', getHref: () => '/admin/products' },
  adminInventory: { path: '/admin/inventory', getHref: () => '/admin/inventory' },
  adminOrders: { path: '/admin/orders', getHref: () => '/admin/orders' },
  adminBlocklist: { path: '/admin/blocklist', getHref: () => '/admin/blocklist' },
  adminAudit: { path: '/admin/audit', getHref: () => '/admin/audit' },
  about: { path: '/about', getHref: () => '/about' },
  howItWorks: { path: '/how-it-works', getHref: () => '/how-it-works' },
  faq: { path: '/faq', getHref: () => '/faq' },
  terms: { path: '/terms', getHref: () => '/terms' },
  refundPolicy: { path: '/refund-policy', getHref: () => '/refund-policy' },
  privacyPolicy: { path: '/privacy-policy', getHref: () => '/privacy-policy' },
} as const;
