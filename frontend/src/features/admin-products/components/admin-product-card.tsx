import type { DraggableProvidedDragHandleProps } from '@hello-pangea/dnd';

import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { IconButton } from '@/components/ui/icon-button';
import { SproutIcon, TrashIcon } from '@/components/ui/icons';
import { releaseTimeLabel } from '@/lib/drop';
import { formatPrice } from '@/lib/money';

import type { AdminProduct } from '@/features/admin-products/types';
import type { MoveStep } from '@/features/admin-products/utils/reorder';

import './admin-product-card.css';

type AdminProductCardProps = {
  product: AdminProduct;
  /** Its place in the list, 1-based, as said to screen readers on the drag handle. */
  position: number;
  /** True for the last card: it cannot move down. */
  isLast?: boolean;
  dragHandleProps: DraggableProvidedDragHandleProps | null;
  isDragging?: boolean;
  onEdit: (product: AdminProduct) => void;
  onDelete: (product: AdminProduct) => void;
  /** The move buttons: to the first place, one place up or down (without them, none show). */
  onMove?: (product: AdminProduct, step: MoveStep) => void;
};

function stockBadge(stock: number | null) {
  if (stock === null) return <Badge tone="brand">Unlimited</Badge>;
  if (stock <= 0) return <Badge tone="danger">Out of Stock</Badge>;
  return <Badge tone="warning">{`${stock} Stock Left`}</Badge>;
}

function GripIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">
      <circle cx="7" cy="5" r="1.6" />
      <circle cx="13" cy="5" r="1.6" />
      <circle cx="7" cy="10" r="1.6" />
      <circle cx="13" cy="10" r="1.6" />
      <circle cx="7" cy="15" r="1.6" />
      <circle cx="13" cy="15" r="1.6" />
    </svg>
  );
}

function MoveIcon({ step }: { step: MoveStep }) {
  const paths: Record<MoveStep, string> = {
    first: 'M5 4h14M12 20V9M6 14l6-6 6 6',
    up: 'M12 19V5M5 12l7-7 7 7',
    down: 'M12 5v14M19 12l-7 7-7-7',
  };
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={paths[step]} />
    </svg>
  );
}

const MOVES: { step: MoveStep; label: (name: string) => string; hint: string }[] = [
  { step: 'first', label: (name) => `Move ${name} to first place`, hint: 'Move to first' },
  { step: 'up', label: (name) => `Move ${name} up one place`, hint: 'Move up' },
  { step: 'down', label: (name) => `Move ${name} down one place`, hint: 'Move down' },
];

/** Stock, drop time, limits, archived, bundle: what is special about the product. */
function StatusBadges({ product }: { product: AdminProduct }) {
  const { related_ids: related, max_per_account: max } = product;
  const badges = [
    stockBadge(product.stock),
    product.release_at ? (
      <Badge tone={product.released ? 'neutral' : 'accent'} className="admin-card__drop">
        {`${product.released ? 'Dropped' : 'Drop'} ${releaseTimeLabel(product.release_at)}`}
      </Badge>
    ) : null,
    max ? <Badge tone="neutral">{`Max ${max} per account`}</Badge> : null,
    product.archived ? <Badge tone="neutral">Archived</Badge> : null,
    related.length ? <Badge tone="special">{`Bundle of ${related.length}`}</Badge> : null,
    product.delete_after_out_of_stock ? <Badge tone="neutral">Archives when sold out</Badge> : null,
  ];
  return (
    <ul className="admin-card__badges" aria-label="Status">
      {badges.map((badge, index) => (badge ? <li key={index}>{badge}</li> : null))}
    </ul>
  );
}

/** Its place, and buttons to move it to the first place or one place up or down. */
function MoveButtons({
  product,
  position,
  isLast,
  onMove,
}: Pick<AdminProductCardProps, 'product' | 'position'> & {
  isLast: boolean;
  onMove: NonNullable<AdminProductCardProps['onMove']>;
}) {
  return (
    <div className="admin-card__order">
      <span className="admin-card__position">Position {position}</span>
      <div className="admin-card__moves" role="group" aria-label={`Move ${product.name}`}>
        {MOVES.map(({ step, label, hint }) => (
          <IconButton
            key={step}
            size="sm"
            tone="brand"
            label={label(product.name)}
            title={hint}
            data-move-step={step}
            data-product-id={product.id}
            disabled={step === 'down' ? isLast : position === 1}
            onClick={() => onMove(product, step)}
          >
            <MoveIcon step={step} />
          </IconButton>
        ))}
      </div>
    </div>
  );
}

/**
 * One product on the admin grid: its facts at a glance, a drag handle with move buttons (for
 * keyboards and screen readers as much as for fingers), Edit and Delete.
 */
export function AdminProductCard({
  product,
  position,
  isLast = false,
  dragHandleProps,
  isDragging = false,
  onEdit,
  onDelete,
  onMove,
}: AdminProductCardProps) {
  return (
    <article
      className={[
        'admin-card',
        isDragging && 'admin-card--dragging',
        product.archived && 'admin-card--archived',
      ]
        .filter(Boolean)
        .join(' ')}
      aria-label={product.name}
    >
      <div className="admin-card__top">
        <div
          className="admin-card__handle"
          {...dragHandleProps}
          aria-label={`Reorder ${product.name}, position ${position}`}
        >
          <GripIcon />
        </div>
        <div className="admin-card__media">
          {product.image ? (
            <img src={product.image} alt={product.name} loading="lazy" decoding="async" />
          ) : (
            <SproutIcon size={32} aria-hidden="true" />
          )}
        </div>
        <div className="admin-card__facts">
          <h3 className="admin-card__name">{product.name}</h3>
          <p className="admin-card__category">{product.category}</p>
          <p className="admin-card__price">{formatPrice(product.price)}</p>
        </div>
      </div>
      <StatusBadges product={product} />
      {onMove ? (
        <MoveButtons product={product} position={position} isLast={isLast} onMove={onMove} />
      ) : null}
      <div className="admin-card__actions">
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Edit ${product.name}`}
          onClick={() => onEdit(product)}
        >
          Edit
        </Button>
        <Button
          size="sm"
          variant="danger"
          startIcon={<TrashIcon size={16} />}
          aria-label={`Delete ${product.name}`}
          onClick={() => onDelete(product)}
        >
          Delete
        </Button>
      </div>
    </article>
  );
}
