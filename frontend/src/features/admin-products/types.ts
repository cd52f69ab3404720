import type { Schemas } from '@/types/api';

/** The word for a product the server no longer has (a 404 on save or delete). */
export const PRODUCT_NOT_FOUND = 'Product not found.';

/**
 * A product as the admin API sends it: the storefront fields plus `archived` (hidden from the
 * storefront: sold out with delete_after_out_of_stock, or deleted with orders).
 */
export type AdminProduct = Schemas['AdminProduct'];
