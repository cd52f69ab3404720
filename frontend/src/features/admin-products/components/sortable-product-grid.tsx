import { useEffect, useRef, useState, type CSSProperties } from 'react';
import {
  DragDropContext,
  Draggable,
  Droppable,
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
  // After a button move the card may land in another row (a new element): focus follows it.
  // It waits for the list in which the card has reached its new place (`to`); any other new list
  // (a refused save puts the old one back) drops it.
  const refocus = useRef<{
    id: number;
    step: MoveStep;
    to: number;
    before: AdminProduct[];
  } | null>(null);

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
  }, [products, columns]);

  /**
   * A keyboard drag can only step into a row whose cards are wholly on screen (the library's
   * rule), and its own scrolling keeps the card where it was on screen, so a card near the top
   * could never go up a row. Scrolling the row the card is over to the middle of the screen keeps
   * the rows above and below it in view. (The lifted card itself is position: fixed and moving.)
   */
  const centerRow = (droppableId: string) =>
    requestAnimationFrame(() => {
      const row = gridRef.current?.querySelector<HTMLElement>(
        `[data-rfd-droppable-id="${droppableId}"]`,
      );
      if (!row) return;
      const box = row.getBoundingClientRect();
      const offset = Math.round(box.top + box.height / 2 - window.innerHeight / 2);
      if (offset !== 0) window.scrollBy({ top: offset, behavior: 'instant' });
    });

  const onMove = (product: AdminProduct, step: MoveStep) => {
    const from = products.findIndex((candidate) => candidate.id === product.id);
    if (from === -1) return;
    const to = stepTarget(from, step, products.length);
    if (to === from) return;
    setAnnouncement(`${product.name} moved to position ${to + 1}.`);
    refocus.current = { id: product.id, step, to, before: products };
    onReorder(moveItem(products, from, to));
  };

  const onDragEnd = (result: DropResult, provided: ResponderProvided) => {
    onDraggingChange(false);
    const { source, destination } = result;
    if (!destination) {
      provided.announce(`Not moved: ${nameOf(result.draggableId)} stays where it was.`);
      return;
    }
    const { from, to } = listMove(source, destination);
    provided.announce(`${nameOf(result.draggableId)} dropped at position ${to + 1}.`);
    if (from !== to) onReorder(moveItem(products, from, to));
  };

  return (
    <DragDropContext
      dragHandleUsageInstructions={INSTRUCTIONS}
      onDragStart={(start, provided) => {
        onDraggingChange(true);
        if (start.mode === 'SNAP') centerRow(start.source.droppableId);
        provided.announce(
          `Lifted ${nameOf(start.draggableId)}, position ${listMove(start.source, start.source).from + 1}.`,
        );
      }}
      onDragUpdate={(update, provided) => {
        const name = nameOf(update.draggableId);
        if (!update.destination) {
          provided.announce(`${name} is not over a place to drop it.`);
          return;
        }
        const { to } = listMove(update.source, update.destination);
        provided.announce(`${name}: position ${to + 1}.`);
        if (update.mode === 'SNAP') centerRow(update.destination.droppableId);
      }}
      onDragEnd={onDragEnd}
    >
      <div
        ref={gridRef}
        className="sortable-grid"
        style={{ '--grid-columns': columns } as CSSProperties}
        data-columns={columns}
      >
        {rows.map((row, rowIndex) => (
          <Droppable key={rowIndex} droppableId={`${ROW_PREFIX}${rowIndex}`} direction="horizontal">
            {(provided, snapshot) => (
              <ul
                ref={provided.innerRef}
                {...provided.droppableProps}
                className={`sortable-grid__row${snapshot.isDraggingOver ? ' sortable-grid__row--over' : ''}`}
              >
                {row.map((product, index) => {
                  const position = rowIndex * columns + index + 1;
                  return (
                    <Draggable key={product.id} draggableId={String(product.id)} index={index}>
                      {(draggable, state) => (
                        <li
                          ref={draggable.innerRef}
                          {...draggable.draggableProps}
                          className="sortable-grid__item"
                        >
                          <AdminProductCard
                            product={product}
                            position={position}
                            isLast={position === products.length}
                            dragHandleProps={draggable.dragHandleProps}
                            isDragging={state.isDragging}
                            onEdit={onEdit}
                            onDelete={onDelete}
                            onMove={onMove}
                          />
                        </li>
                      )}
                    </Draggable>
                  );
                })}
                {provided.placeholder}
              </ul>
            )}
          </Droppable>
        ))}
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </DragDropContext>
  );
}
