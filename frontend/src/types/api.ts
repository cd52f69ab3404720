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
};
