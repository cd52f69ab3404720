import type { Product } from '@/types/api';

/** What the inventory page needs of a product (the admin list's products have more). */
export type InventoryProduct = Pick<Product, 'id' | 'name' | 'image' | 'stock' | 'inventory'>;
