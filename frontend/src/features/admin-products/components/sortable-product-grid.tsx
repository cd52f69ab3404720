import type { CSSProperties } from 'react';
import {
  DragDropContext,
  Draggable,
  Droppable,
  type DropResult,
  type ResponderProvided,
} from '@hello-pangea/dnd';

import { useGridColumns } from '@/features/admin-products/hooks/use-grid-columns';
import type { AdminProduct } from '@/features/admin-products/types';
import { gridMoveToListMove, moveItem, toRows } from '@/features/admin-products/utils/reorder';

import { AdminProductCard } from './admin-product-card';
import './sortable-product-grid.css';

type SortableProductGridProps = {
  products: AdminProduct[];
  /** The whole list in its new order, after a drop that moved something. */
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
  'escape to cancel.';

function rowOf(droppableId: string): number {
  return Number(droppableId.slice(ROW_PREFIX.length));
}

/**
 * The products as a grid of 1, 2 or 3 columns whose cards can be dragged into a new order with
 * the mouse, a finger or the keyboard (space to lift, arrows to move, space to drop).
 * Each row is its own horizontal drop area, so moves across rows work in every column count.
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
  const nameOf = (draggableId: string) =>
    products.find((product) => String(product.id) === draggableId)?.name ?? 'The product';

  const onDragEnd = (result: DropResult, provided: ResponderProvided) => {
    onDraggingChange(false);
    const { source, destination } = result;
    if (!destination) {
      provided.announce(`Not moved: ${nameOf(result.draggableId)} stays where it was.`);
      return;
    }
    const { from, to } = gridMoveToListMove(
      {
        from: { row: rowOf(source.droppableId), index: source.index },
        to: { row: rowOf(destination.droppableId), index: destination.index },
      },
      columns,
    );
    provided.announce(`${nameOf(result.draggableId)} dropped at position ${to + 1}.`);
    if (from !== to) onReorder(moveItem(products, from, to));
  };

  return (
    <DragDropContext
      dragHandleUsageInstructions={INSTRUCTIONS}
      onDragStart={(start, provided) => {
        onDraggingChange(true);
        provided.announce(`Lifted ${nameOf(start.draggableId)}.`);
      }}
      onDragEnd={onDragEnd}
    >
      <div
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
                          position={rowIndex * columns + index + 1}
                          dragHandleProps={draggable.dragHandleProps}
                          isDragging={state.isDragging}
                          onEdit={onEdit}
                          onDelete={onDelete}
                        />
                      </li>
                    )}
                  </Draggable>
                ))}
                {provided.placeholder}
              </ul>
            )}
          </Droppable>
        ))}
      </div>
    </DragDropContext>
  );
}
