import type { Schemas } from '@/types/api';

/**
 * A product as the admin API sends it: the storefront fields plus `archived` (hidden from the
 * storefront: sold out with delete_after_out_of_stock, or deleted with orders).
 */
export type AdminProduct = Schemas['AdminProduct'];
