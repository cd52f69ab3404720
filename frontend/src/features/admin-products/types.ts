import type { Product } from '@/types/api';

/** A product as the admin API sends it: the storefront fields plus whether it is archived. */
export type AdminProduct = Product & {
  /** Hidden from the storefront (sold out with delete_after_out_of_stock, or deleted with orders). */
  archived: boolean;
};
