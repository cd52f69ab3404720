import type { Product } from '@/types/api';

let nextId = 1000;

/** A plausible product; override only what the test is about. */
export function makeProduct(overrides: Partial<Product> = {}): Product {
  const id = overrides.id ?? nextId++;
  return {
    id,
    name: `Golden Bee ${id}`,
    description: 'A shiny bee that pollinates your crops faster.',
    price: 9.99,
    category: 'Pets',
    image: `/media/products/bee-${id}.png`,
    stock: null,
    weight: null,
    mutation: null,
    savings: null,
    sort_order: null,
    delete_after_out_of_stock: false,
    related_ids: [],
    inventory: 0,
    dupe_warning: false,
    released: true,
    release_at: null,
    max_per_account: null,
    ...overrides,
  };
}
