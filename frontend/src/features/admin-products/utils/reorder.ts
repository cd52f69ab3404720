/** Where a card was picked up and dropped, as rows of the grid report it. */
export type GridMove = {
  from: { row: number; index: number };
  to: { row: number; index: number };
};

/**
 * The list's position of a move between rows of `columns` cards. Within a row the drop index is
 * already the final place; into another row it is the place before the card that was there, which
 * shifts left by one when the card came from an earlier row.
 */
export function gridMoveToListMove(move: GridMove, columns: number): { from: number; to: number } {
  const from = move.from.row * columns + move.from.index;
  const rowStart = move.to.row * columns;
  if (move.from.row === move.to.row) return { from, to: rowStart + move.to.index };
  const to = rowStart + move.to.index - (from < rowStart ? 1 : 0);
  return { from, to };
}

/** A copy of `items` with the one at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, moved);
  return next;
}

/** Splits `items` into rows of `columns`. */
export function toRows<T>(items: readonly T[], columns: number): T[][] {
  const rows: T[][] = [];
  for (let start = 0; start < items.length; start += columns) {
    rows.push(items.slice(start, start + columns));
  }
  return rows;
}

/** The body of POST /api/admin/products/reorder: every product with its position index. */
export function reorderPayload(items: ReadonlyArray<{ id: number }>): {
  updates: { id: number; sort_order: number }[];
} {
  return { updates: items.map((item, index) => ({ id: item.id, sort_order: index })) };
}

/** What a card's move buttons do: to the first place, one place earlier, one place later. */
export type MoveStep = 'first' | 'up' | 'down';

/** The list position a move button takes the card at `from` to, in a list of `length`. */
export function stepTarget(from: number, step: MoveStep, length: number): number {
  if (step === 'first') return 0;
  if (step === 'up') return Math.max(0, from - 1);
  return Math.min(length - 1, from + 1);
}
