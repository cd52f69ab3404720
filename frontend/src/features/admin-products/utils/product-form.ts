import type { AdminProduct } from '@/features/admin-products/types';
import { firstFieldMessages } from '@/lib/api-client';

/** The product form as typed: every box holds text until it is sent. */
export type ProductFormValues = {
  name: string;
  price: string;
  category: string;
  description: string;
  /** '' = unlimited. */
  stock: string;
  weight: string;
  /**
   * The product's place in the shop's list, counted from 1 as the cards count it ('' = where
   * the server puts it). Sent as a reorder, not as the stored `sort_order` number.
   */
  sort_order: string;
  mutation: string;
  savings: string;
  delete_after_out_of_stock: boolean;
  dupe_warning: boolean;
  related_ids: number[];
  /** A drop's release time as a datetime-local input holds it (the admin's local time); '' = none. */
  release_at: string;
  /** How many one buyer may hold, 1 to 20; '' = no cap. */
  max_per_account: string;
};

export type ProductFormField = keyof ProductFormValues | 'image';
export type ProductFormErrors = Partial<Record<ProductFormField, string>>;

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: '',
  price: '',
  category: '',
  description: '',
  stock: '',
  weight: '',
  sort_order: '',
  mutation: '',
  savings: '',
  delete_after_out_of_stock: false,
  dupe_warning: false,
  related_ids: [],
  release_at: '',
  max_per_account: '',
};

const text = (value: number | string | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/** Edit fills the form with the product as it is now, and its place in `list` (the cards' order). */
export function productToFormValues(
  product: AdminProduct,
  list: ReadonlyArray<{ id: number }> = [],
): ProductFormValues {
  const index = list.findIndex((candidate) => candidate.id === product.id);
  return {
    name: product.name,
    price: text(product.price),
    category: product.category,
    description: product.description ?? '',
    stock: text(product.stock),
    weight: text(product.weight),
    sort_order: index === -1 ? '' : String(index + 1),
    mutation: text(product.mutation),
    savings: text(product.savings),
    delete_after_out_of_stock: product.delete_after_out_of_stock,
    dupe_warning: product.dupe_warning,
    related_ids: [...product.related_ids],
    release_at: product.release_at === null ? '' : toDateTimeLocal(new Date(product.release_at)),
    max_per_account: text(product.max_per_account),
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** "2026-11-27T04:00" (seconds only when there are some): a moment in this browser's zone. */
export function toDateTimeLocal(moment: Date): string {
  const date = `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}`;
  const time = `${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
  const seconds = moment.getSeconds();
  return `${date}T${time}${seconds ? `:${pad(seconds)}` : ''}`;
}

/** The moment a datetime-local value names in this browser's zone (an invalid Date when none). */
export function fromDateTimeLocal(value: string): Date {
  // a date and time without an offset is read as local time
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)
    ? new Date(value)
    : new Date(Number.NaN);
}

/** The largest cap per Discord account the server takes. */
export const MAX_PER_ACCOUNT = 20;

const DECIMAL = /^\d+(\.\d+)?$/;
const WHOLE = /^\d+$/;

/**
 * The checks the browser can make before sending (docs/product.md, Validation: name, price and category required;
 * price, stock and weight numeric). The server checks everything again and has the last word.
 */
export function validateProductForm(
  values: ProductFormValues,
  { places }: { places: number } = { places: Number.MAX_SAFE_INTEGER },
): ProductFormErrors {
  const errors: ProductFormErrors = {};
  if (!values.name.trim()) errors.name = 'Enter a name.';
  const price = values.price.trim();
  if (!price) errors.price = 'Enter a price.';
  else if (!DECIMAL.test(price)) errors.price = 'The price must be a number, e.g. 4.99.';
  if (!values.category.trim()) errors.category = 'Enter a category.';
  const stock = values.stock.trim();
  if (stock && !WHOLE.test(stock))
    errors.stock = 'Stock must be a whole number of 0 or more (empty = unlimited).';
  const weight = values.weight.trim();
  if (weight && !DECIMAL.test(weight)) errors.weight = 'The weight must be a number, e.g. 2.5.';
  const sortOrder = values.sort_order.trim();
  if (sortOrder && (!WHOLE.test(sortOrder) || Number(sortOrder) < 1 || Number(sortOrder) > places))
    errors.sort_order = `The position must be a whole number from 1 to ${places}.`;
  const savings = values.savings.trim();
  if (savings && !DECIMAL.test(savings))
    errors.savings = 'The original price must be a number, e.g. 9.99.';
  const releaseAt = values.release_at.trim();
  if (releaseAt && Number.isNaN(fromDateTimeLocal(releaseAt).getTime()))
    errors.release_at = 'Enter a date and a time (empty = on sale now).';
  const cap = values.max_per_account.trim();
  if (cap && (!WHOLE.test(cap) || Number(cap) < 1 || Number(cap) > MAX_PER_ACCOUNT))
    errors.max_per_account = `The limit must be a whole number from 1 to ${MAX_PER_ACCOUNT} (empty = no limit).`;
  return errors;
}

/**
 * The multipart body of POST /api/admin/products (and of the update, with `_method=PUT`):
 * the contract's field names, flags as 1/0, one `related_ids[]` per bundled product, and the
 * image only when a new one was chosen. A drop's release time and cap go only when they differ
 * from `initial` (the form as it opened), so an untouched edit leaves them as they are; an
 * emptied one goes empty, which clears it. The release time goes as RFC 3339 in UTC.
 */
export function productFormData(
  values: ProductFormValues,
  image: Blob | null,
  {
    method,
    sortOrder = null,
    initial = EMPTY_PRODUCT_FORM,
  }: { method?: 'PUT'; sortOrder?: number | null; initial?: ProductFormValues } = {},
): FormData {
  const data = new FormData();
  if (method) data.append('_method', method);
  data.append('name', values.name.trim());
  data.append('price', values.price.trim());
  data.append('category', values.category.trim());
  data.append('description', values.description.trim());
  data.append('stock', values.stock.trim());
  data.append('weight', values.weight.trim());
  // the stored number stays as it is: a new place is a reorder (see `moveToPlace`)
  data.append('sort_order', sortOrder === null ? '' : String(sortOrder));
  data.append('mutation', values.mutation.trim());
  data.append('savings', values.savings.trim());
  data.append('delete_after_out_of_stock', values.delete_after_out_of_stock ? '1' : '0');
  data.append('dupe_warning', values.dupe_warning ? '1' : '0');
  for (const id of values.related_ids) data.append('related_ids[]', String(id));
  const releaseAt = values.release_at.trim();
  if (releaseAt !== initial.release_at.trim())
    data.append('release_at', releaseAt ? fromDateTimeLocal(releaseAt).toISOString() : '');
  const cap = values.max_per_account.trim();
  if (cap !== initial.max_per_account.trim()) data.append('max_per_account', cap);
  if (image) data.append('image', image, 'product.png');
  return data;
}

/**
 * The list with `product` at `place` (counted from 1), or null when it is there already: the
 * order a reorder saves, as dragging its card would.
 */
export function moveToPlace<T extends { id: number }>(
  list: readonly T[],
  product: T,
  place: number,
): T[] | null {
  if (list[place - 1]?.id === product.id) return null;
  const others = list.filter((candidate) => candidate.id !== product.id);
  const index = Math.min(Math.max(place - 1, 0), others.length);
  return [...others.slice(0, index), product, ...others.slice(index)];
}

const FORM_FIELDS: readonly ProductFormField[] = [...Object.keys(EMPTY_PRODUCT_FORM), 'image'] as (
  keyof ProductFormValues | 'image'
)[];

/**
 * The server's 422 messages for the fields this form has (see `firstFieldMessages`:
 * "related_ids.1" and "related_ids[]" belong to the related-products picker).
 */
export function serverFieldErrors(errors: Record<string, string[]>): ProductFormErrors {
  const mapped: ProductFormErrors = {};
  for (const [field, message] of Object.entries(firstFieldMessages(errors))) {
    if (FORM_FIELDS.includes(field as ProductFormField))
      mapped[field as ProductFormField] = message;
  }
  return mapped;
}
