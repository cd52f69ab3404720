export const env = {
  /** The API lives on the same origin under /api; cookies travel with every call. */
  API_URL: import.meta.env.VITE_API_URL ?? '/api',
  /** How often the storefront refreshes the product list (docs/product.md, Constants and limits). */
  PRODUCTS_POLL_MS: 5000,
} as const;
