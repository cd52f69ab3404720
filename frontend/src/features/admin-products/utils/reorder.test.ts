import { describe, expect, it } from 'vitest';

import { gridMoveToListMove, moveItem, reorderPayload, stepTarget, toRows } from './reorder';

describe('grid reordering', () => {
  it('splits the list into rows of the column count', () => {
    expect(toRows([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(toRows([1, 2, 3], 3)).toEqual([[1, 2, 3]]);
  });

  it('turns a move within a row into list positions', () => {
    expect(gridMoveToListMove({ from: { row: 1, index: 2 }, to: { row: 1, index: 0 } }, 3)).toEqual(
      {
        from: 5,
        to: 3,
      },
    );
  });

  it('moves a card up into an earlier row before the card that was there', () => {
    // 3 columns: the card at row 2, index 1 (position 7) dropped first in row 0.
    const move = gridMoveToListMove({ from: { row: 2, index: 1 }, to: { row: 0, index: 0 } }, 3);
    expect(move).toEqual({ from: 7, to: 0 });
    expect(moveItem(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], move.from, move.to)).toEqual([
      'h',
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
    ]);
  });

  it('moves a card down into a later row, counting the gap it leaves', () => {
    // 2 columns: 'a' (row 0) dropped before 'd' (row 1, index 1) lands between c and d.
    const move = gridMoveToListMove({ from: { row: 0, index: 0 }, to: { row: 1, index: 1 } }, 2);
    expect(move).toEqual({ from: 0, to: 2 });
    expect(moveItem(['a', 'b', 'c', 'd', 'e'], move.from, move.to)).toEqual([
      'b',
      'c',
      'a',
      'd',
      'e',
    ]);
  });

  it('sends every product with its position index', () => {
    expect(reorderPayload([{ id: 9 }, { id: 3 }, { id: 5 }])).toEqual({
      updates: [
        { id: 9, sort_order: 0 },
        { id: 3, sort_order: 1 },
        { id: 5, sort_order: 2 },
      ],
    });
  });
});

describe('move buttons', () => {
  it('go to the first place, or one place up or down, never past either end', () => {
    expect(stepTarget(5, 'first', 8)).toBe(0);
    expect(stepTarget(5, 'up', 8)).toBe(4);
    expect(stepTarget(0, 'up', 8)).toBe(0);
    expect(stepTarget(5, 'down', 8)).toBe(6);
    expect(stepTarget(7, 'down', 8)).toBe(7);
  });
});
