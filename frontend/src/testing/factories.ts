import type { Product, Schemas } from '@/types/api';

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

type DeliveryStep = Schemas['DeliveryStep'];

/**
 * The shop's script as `GET /api/site` words it, with the Discord step where `invite` is set and
 * the promise of `minutes` in the waiting step.
 */
export function makeDeliverySteps(invite: string | null = null, minutes = 10): DeliveryStep[] {
  return [
    ...(invite
      ? [
          {
            key: 'discord' as const,
            title: 'Join our Discord server',
            detail: 'Use the Discord account you linked at checkout.',
            link: invite,
          },
        ]
      : []),
    {
      key: 'wait',
      title: 'Wait for a member of staff',
      detail: `Delivery usually takes under ${minutes} minutes.`,
      link: null,
    },
    {
      key: 'join',
      title: 'Join their private server',
      detail: 'Your order page shows the link.',
      link: null,
    },
    { key: 'ready', title: 'Press “I’m in the game”', detail: 'So they know.', link: null },
    { key: 'receive', title: 'Receive your items', detail: 'Accept their trade.', link: null },
    { key: 'review', title: 'Leave a review', detail: 'Tell other players.', link: null },
  ];
}

/** An order's script: the shop's, the steps in `done` marked as the order is past them. */
export function makeOrderSteps(
  invite: string | null,
  done: ReadonlyArray<DeliveryStep['key']> = [],
): Schemas['OrderStep'][] {
  return makeDeliverySteps(invite).map((step) => ({ ...step, done: done.includes(step.key) }));
}
