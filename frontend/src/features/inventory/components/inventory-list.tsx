import { useId, useState } from 'react';

import { Badge } from '@/components/ui/badge';
import { IconButton } from '@/components/ui/icon-button';
import { MinusIcon, PlusIcon, SproutIcon } from '@/components/ui/icons';

import { useChangeInventory } from '@/features/inventory/api/change-inventory';
import { useSetInventory } from '@/features/inventory/api/set-inventory';
import type { InventoryProduct, SavedProduct } from '@/features/inventory/types';
import {
  digitsOnly,
  inventoryLabel,
  parseInventory,
} from '@/features/inventory/utils/inventory-input';

import '@/components/ui/field.css';
import './inventory-list.css';

type RowProps = {
  product: InventoryProduct;
  onSaved: (product: SavedProduct) => void;
};

function InventoryRow({ product, onSaved }: RowProps) {
  const inputId = useId();
  // What is being typed; null while the box shows the saved number.
  const [draft, setDraft] = useState<string | null>(null);
  const change = useChangeInventory(onSaved);
  const set = useSetInventory(onSaved);
  const busy = change.isPending || set.isPending;
  const stock = product.stock;
  const shown = draft ?? (stock === null ? '' : String(stock));

  const save = () => {
    if (draft === null) return;
    const inventory = parseInventory(draft);
    setDraft(null);
    if (inventory === stock) return;
    set.mutate({ id: product.id, inventory });
  };

  const step = (type: 'plus' | 'minus') => change.mutate({ id: product.id, type });

  return (
    <li className="inventory-row" aria-busy={busy || undefined}>
      <div className="inventory-row__media">
        {product.image ? (
          <img src={product.image} alt="" loading="lazy" decoding="async" />
        ) : (
          <SproutIcon size={24} aria-hidden="true" />
        )}
      </div>
      <label className="inventory-row__name" htmlFor={inputId}>
        {product.name}
      </label>
      <div className="inventory-row__controls">
        <IconButton
          label={`One less ${product.name}`}
          size="lg"
          className="inventory-row__step"
          disabled={busy || stock === null || stock === 0}
          onClick={() => step('minus')}
        >
          <MinusIcon />
        </IconButton>
        <input
          id={inputId}
          className="form-control inventory-row__input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={stock === null ? '∞' : '0'}
          value={shown}
          onChange={(event) => setDraft(digitsOnly(event.currentTarget.value))}
          onBlur={save}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              save();
            } else if (event.key === 'Escape') {
              setDraft(null);
            }
          }}
        />
        <IconButton
          label={`One more ${product.name}`}
          size="lg"
          className="inventory-row__step"
          disabled={busy}
          onClick={() => step('plus')}
        >
          <PlusIcon />
        </IconButton>
      </div>
      <Badge
        className="inventory-row__badge"
        tone={stock === null ? 'brand' : stock <= 0 ? 'danger' : 'warning'}
      >
        {inventoryLabel(stock)}
      </Badge>
    </li>
  );
}

type InventoryListProps = {
  products: InventoryProduct[];
  /** A product the server just answered after a change, to put into the shared list. */
  onProductSaved: (product: SavedProduct) => void;
};

/** One row per product: picture, name, minus, the number, plus, and its stock badge. */
export function InventoryList({ products, onProductSaved }: InventoryListProps) {
  return (
    <ul className="inventory-list" aria-label="Stock per product">
      {products.map((product) => (
        <InventoryRow key={product.id} product={product} onSaved={onProductSaved} />
      ))}
    </ul>
  );
}
