import { describe, expect, it } from 'vitest';

import {
  describeChanges,
  entrySubject,
  fieldLabel,
  formatValue,
  kindLabel,
} from '@/features/audit/utils/describe-entry';

describe('describeChanges', () => {
  it('lists only the values an edit changed, before -> after', () => {
    expect(
      describeChanges({
        before: { name: 'Owl', price: '9.50', stock: 4, related_ids: [] },
        after: { name: 'Owl', price: '11.25', stock: null, related_ids: [3, 4] },
      }),
    ).toEqual([
      { field: 'Price', before: '9.50', after: '11.25' },
      { field: 'Stock', before: '4', after: 'none' },
      { field: 'Related ids', before: 'none', after: '3, 4' },
    ]);
  });

  it('lists what a creation wrote and what a deletion took away', () => {
    expect(describeChanges({ before: null, after: { code: 'SPRING', max_uses: null } })).toEqual([
      { field: 'Code', after: 'SPRING' },
      { field: 'Max uses', after: 'none' },
    ]);
    expect(describeChanges({ before: { dupe_warning: true }, after: null })).toEqual([
      { field: 'Dupe warning', before: 'yes' },
    ]);
  });

  it('shows a value only after (what a stock change asked) and keeps names as keys', () => {
    expect(
      describeChanges({
        before: { name: 'Bee', stock: 4 },
        after: { name: 'Bee', stock: 7, change: '+3' },
      }),
    ).toEqual([
      { field: 'Stock', before: '4', after: '7' },
      { field: 'Change', after: '+3' },
    ]);
    expect(describeChanges({ before: { 'Owl (#2)': null }, after: { 'Owl (#2)': 0 } })).toEqual([
      { field: 'Owl (#2)', before: 'none', after: '0' },
    ]);
  });

  it('says nothing changed when nothing did', () => {
    expect(describeChanges({ before: {}, after: {} })).toEqual([]);
    expect(describeChanges({ before: null, after: null })).toEqual([]);
  });
});

describe('labels', () => {
  it('names kinds, fields and values for people', () => {
    expect(kindLabel('stock.set')).toBe('Stock set');
    expect(kindLabel('staff.private_server')).toBe('Private server link changed');
    expect(kindLabel('order.hold_release')).toBe('Held order released to the queue');
    expect(kindLabel('order.message')).toBe('Message to a buyer');
    expect(kindLabel('something.new')).toBe('something.new');
    expect(fieldLabel('delete_after_out_of_stock')).toBe('Delete after out of stock');
    expect(formatValue(false)).toBe('no');
    expect(formatValue('')).toBe('(empty)');
    expect(entrySubject({ before: { name: 'Owl' }, after: { name: 'Snowy Owl' } })).toBe(
      'Snowy Owl',
    );
    expect(entrySubject({ before: null, after: { code: 'SPRING' } })).toBe('SPRING');
    expect(entrySubject({ before: null, after: null })).toBeNull();
  });
});
