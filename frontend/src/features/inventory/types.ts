import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import type { Product, Schemas } from '@/types/api';

/** What the inventory page needs of a product (the admin list's products have more). */
export type InventoryProduct = Pick<Product, 'id' | 'name' | 'image' | 'stock' | 'inventory'>;

/** A product as the stock calls answer it (the admin's product). */
export type SavedProduct = Schemas['AdminProduct'];

/** Says a failed stock call to the member of staff (and the console): `what` failed. */
export function reportStockFailure(what: string) {
  return (error: unknown) => {
    console.error(`${what} failed.`, error);
    toast.error(errorMessage(error));
  };
}
