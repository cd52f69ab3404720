import { useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import {
  DragDropContext,
  Draggable,
  Droppable,
  type DragStart,
  type DragUpdate,
  type DraggableLocation,
  type DropResult,
  type ResponderProvided,
} from '@hello-pangea/dnd';

import { useGridColumns } from '@/features/admin-products/hooks/use-grid-columns';
import type { AdminProduct } from '@/features/admin-products/types';
import {
  gridMoveToListMove,
  moveItem,
  stepTarget,
  toRows,
  type MoveStep,
} from '@/features/admin-products/utils/reorder';

import { AdminProductCard } from './admin-product-card';
import './sortable-product-grid.css';

type SortableProductGridProps = {
  products: AdminProduct[];
  /** The whole list in its new order, after a drop or a move button that moved something. */
  onReorder: (products: AdminProduct[]) => void;
  /** True while a card is lifted (the list stops polling meanwhile). */
  onDraggingChange: (dragging: boolean) => void;
  onEdit: (product: AdminProduct) => void;
  onDelete: (product: AdminProduct) => void;
};

const ROW_PREFIX = 'product-row-';

const INSTRUCTIONS =
  'Press space bar to lift the product. Use the arrow keys to move it: left and right within ' +
  'a row, up and down between rows. Press space bar again to drop it in its new place, or ' +
  'escape to cancel. The Move buttons next to the handle move it one place or to the first place.';

function rowOf(droppableId: string): number {
  return Number(droppableId.slice(ROW_PREFIX.length));
}

/** A button move: the card, the button, its new place and the list it moved in. */
type Refocus = { id: number; step: MoveStep; to: number; before: AdminProduct[] };

/**
 * After a button move the card may land in another row (a new element): focus follows it. It
 * waits for the list in which the card has reached its new place (`to`); any other new list (a
 * refused save puts the old one back) drops it.
 */
function useRefocus(
  products: AdminProduct[],
  columns: number,
  gridRef: RefObject<HTMLDivElement | null>,
) {
  const refocus = useRef<Refocus | null>(null);
  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted || !gridRef.current) return;
    if (products[wanted.to]?.id !== wanted.id) {
      if (products !== wanted.before) refocus.current = null;
      return;
    }
    refocus.current = null;
    const grid = gridRef.current;
    const control = grid.querySelector<HTMLButtonElement>(
      `[data-move-step="${wanted.step}"][data-product-id="${wanted.id}"]`,
    );
    const target =
      control && !control.disabled
        ? control
        : grid.querySelector<HTMLElement>(`[data-rfd-drag-handle-draggable-id="${wanted.id}"]`);
    target?.focus();
  }, [products, columns, gridRef]);
  return (wanted: Refocus) => {
    refocus.current = wanted;
  };
}

type CardActions = Pick<Parameters<typeof AdminProductCard>[0], 'onEdit' | 'onDelete' | 'onMove'>;

/** One row of the grid: its own horizontal drop area. */
function ProductRow({
  row,
  first,
  droppableId,
  count,
  card,
}: {
  row: AdminProduct[];
  /** The place in the whole list of the row's first card, from 0. */
  first: number;
  droppableId: string;
  count: number;
  card: CardActions;
}) {
  return (
    <Droppable droppableId={droppableId} direction="horizontal">
      {(provided, snapshot) => (
        <ul
          ref={provided.innerRef}
          {...provided.droppableProps}
          className={`sortable-grid__row${snapshot.isDraggingOver ? ' sortable-grid__row--over' : ''}`}
        >
          {row.map((product, index) => (
            <Draggable key={product.id} draggableId={String(product.id)} index={index}>
              {(draggable, state) => (
                <li
                  ref={draggable.innerRef}
                  {...draggable.draggableProps}
                  className="sortable-grid__item"
                >
                  <AdminProductCard
                    product={product}
                    position={first + index + 1}
                    isLast={first + index + 1 === count}
                    dragHandleProps={draggable.dragHandleProps}
                    isDragging={state.isDragging}
                    {...card}
                  />
                </li>
              )}
            </Draggable>
          ))}
          {provided.placeholder}
        </ul>
      )}
    </Droppable>
  );
}

/**
 * A keyboard drag can only step into a row whose cards are wholly on screen (the library's
 * rule), and its own scrolling keeps the card where it was on screen, so a card near the top
 * could never go up a row. Scrolling the row the card is over to the middle of the screen keeps
 * the rows above and below it in view. (The lifted card itself is position: fixed and moving.)
 */
function centerRow(grid: HTMLElement | null, droppableId: string) {
  requestAnimationFrame(() => {
    const row = grid?.querySelector<HTMLElement>(`[data-rfd-droppable-id="${droppableId}"]`);
    if (!row) return;
    const box = row.getBoundingClientRect();
    const offset = Math.round(box.top + box.height / 2 - window.innerHeight / 2);
    if (offset !== 0) window.scrollBy({ top: offset, behavior: 'instant' });
  });
}

/**
 * What a drag does: lifting stops the list's polling, every move is announced with its place in
 * the whole list (and a keyboard move keeps its row in view), a drop reorders.
 */
function useDragResponders({
  products,
  columns,
  grid,
  onReorder,
  onDraggingChange,
}: Pick<SortableProductGridProps, 'products' | 'onReorder' | 'onDraggingChange'> & {
  columns: number;
  grid: RefObject<HTMLDivElement | null>;
}) {
  const nameOf = (draggableId: string) =>
    products.find((product) => String(product.id) === draggableId)?.name ?? 'The product';
  const listMove = (source: DraggableLocation, destination: DraggableLocation) =>
    gridMoveToListMove(
      {
        from: { row: rowOf(source.droppableId), index: source.index },
        to: { row: rowOf(destination.droppableId), index: destination.index },
      },
      columns,
    );
  return {
    onDragStart: (start: DragStart, provided: ResponderProvided) => {
      onDraggingChange(true);
      if (start.mode === 'SNAP') centerRow(grid.current, start.source.droppableId);
      const { from } = listMove(start.source, start.source);
      provided.announce(`Lifted ${nameOf(start.draggableId)}, position ${from + 1}.`);
    },
    onDragUpdate: (update: DragUpdate, provided: ResponderProvided) => {
      const name = nameOf(update.draggableId);
      if (!update.destination) {
        provided.announce(`${name} is not over a place to drop it.`);
        return;
      }
      const { to } = listMove(update.source, update.destination);
      provided.announce(`${name}: position ${to + 1}.`);
      if (update.mode === 'SNAP') centerRow(grid.current, update.destination.droppableId);
    },
    onDragEnd: (result: DropResult, provided: ResponderProvided) => {
      onDraggingChange(false);
      const { source, destination } = result;
      if (!destination) {
        provided.announce(`Not moved: ${nameOf(result.draggableId)} stays where it was.`);
        return;
      }
      const { from, to } = listMove(source, destination);
      provided.announce(`${nameOf(result.draggableId)} dropped at position ${to + 1}.`);
      if (from !== to) onReorder(moveItem(products, from, to));
    },
  };
}

/**
 * The products as a grid of 1, 2 or 3 columns whose cards can be dragged into a new order with
 * the mouse, a finger or the keyboard (space to lift, arrows to move, space to drop), or moved
 * with the buttons on each card (to the first place, one place up or down).
 * Each row is its own horizontal drop area, so moves across rows work in every column count.
 * While a card is lifted, every move is announced with its place in the whole list.
 */
export function SortableProductGrid({
  products,
  onReorder,
  onDraggingChange,
  onEdit,
  onDelete,
}: SortableProductGridProps) {
  const columns = useGridColumns();
  const rows = toRows(products, columns);
  const gridRef = useRef<HTMLDivElement>(null);
  const [announcement, setAnnouncement] = useState('');
  const refocus = useRefocus(products, columns, gridRef);

  const onMove = (product: AdminProduct, step: MoveStep) => {
    const from = products.findIndex((candidate) => candidate.id === product.id);
    if (from === -1) return;
    const to = stepTarget(from, step, products.length);
    if (to === from) return;
    setAnnouncement(`${product.name} moved to position ${to + 1}.`);
    refocus({ id: product.id, step, to, before: products });
    onReorder(moveItem(products, from, to));
  };

  const drag = useDragResponders({
    products,
    columns,
    grid: gridRef,
    onReorder,
    onDraggingChange,
  });

  return (
    <DragDropContext
      dragHandleUsageInstructions={INSTRUCTIONS}
      onDragStart={drag.onDragStart}
      onDragUpdate={drag.onDragUpdate}
      onDragEnd={drag.onDragEnd}
    >
      <div
        ref={gridRef}
        className="sortable-grid"
        style={{ '--grid-columns': columns } as CSSProperties}
        data-columns={columns}
      >
        {rows.map((row, rowIndex) => (
          <ProductRow
            key={rowIndex}
            row={row}
            first={rowIndex * columns}
            droppableId={`${ROW_PREFIX}${rowIndex}`}
            count={products.length}
            card={{ onEdit, onDelete, onMove }}
          />
        ))}
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </DragDropContext>
  );
}
