import { describe, expect, it } from 'vitest';

import { makeProduct } from '@/testing/factories';

import {
  EMPTY_PRODUCT_FORM,
  moveToPlace,
  productFormData,
  productToFormValues,
  serverFieldErrors,
  toDateTimeLocal,
  validateProductForm,
} from './product-form';

const valid = { ...EMPTY_PRODUCT_FORM, name: 'Raccoon', price: '4.99', category: 'Pets' };

describe('validateProductForm', () => {
  it('requires a name, a price and a category', () => {
    expect(validateProductForm(EMPTY_PRODUCT_FORM)).toEqual({
      name: 'Enter a name.',
      price: 'Enter a price.',
      category: 'Enter a category.',
    });
    expect(validateProductForm(valid)).toEqual({});
  });

  it('wants numbers in price, stock, weight, position and original price', () => {
    const errors = validateProductForm({
      ...valid,
      price: '4,99',
      stock: '-1',
      weight: 'heavy',
      sort_order: '1.5',
      savings: 'x',
    });
    expect(Object.keys(errors).sort()).toEqual([
      'price',
      'savings',
      'sort_order',
      'stock',
      'weight',
    ]);
    expect(validateProductForm({ ...valid, stock: '', weight: '2.5', sort_order: '3' })).toEqual(
      {},
    );
  });

  it('takes a position from 1 to the number of places, as the cards count', () => {
    for (const position of ['0', '-1', '4']) {
      expect(validateProductForm({ ...valid, sort_order: position }, { places: 3 })).toEqual({
        sort_order: 'The position must be a whole number from 1 to 3.',
      });
    }
    expect(validateProductForm({ ...valid, sort_order: '3' }, { places: 3 })).toEqual({});
  });
});

describe('the Position: one numbering with the cards (issue 23)', () => {
  const owl = { ...makeProduct({ id: 5, sort_order: null }), archived: false };
  const raccoon = { ...makeProduct({ id: 3, sort_order: 1 }), archived: false };
  const kitsune = { ...makeProduct({ id: 7, sort_order: 3 }), archived: false };
  const list = [owl, raccoon, kitsune];

  it("shows the product's place in the list, whatever number is stored", () => {
    expect(productToFormValues(raccoon, list).sort_order).toBe('2');
    expect(productToFormValues(owl, list).sort_order).toBe('1');
  });

  it('moves the product to a new place, and asks nothing when it is there already', () => {
    expect(moveToPlace(list, kitsune, 1)?.map((p) => p.id)).toEqual([7, 5, 3]);
    expect(moveToPlace(list, owl, 3)?.map((p) => p.id)).toEqual([3, 7, 5]);
    expect(moveToPlace(list, raccoon, 2)).toBeNull();
  });

  it('sends the stored number unchanged: a new place is a reorder', () => {
    const values = productToFormValues(raccoon, list);
    expect(productFormData(values, null, { method: 'PUT', sortOrder: 1 }).get('sort_order')).toBe(
      '1',
    );
    expect(productFormData({ ...valid, sort_order: '2' }, null).get('sort_order')).toBe('');
  });
});

describe('productFormData', () => {
  it('sends the contract fields, flags as 1/0 and one related_ids[] per product', () => {
    const data = productFormData(
      {
        ...valid,
        name: '  Raccoon ',
        stock: '',
        delete_after_out_of_stock: true,
        dupe_warning: false,
        related_ids: [3, 7],
      },
      null,
    );
    expect(data.get('name')).toBe('Raccoon');
    expect(data.get('price')).toBe('4.99');
    expect(data.get('stock')).toBe('');
    expect(data.get('delete_after_out_of_stock')).toBe('1');
    expect(data.get('dupe_warning')).toBe('0');
    expect(data.getAll('related_ids[]')).toEqual(['3', '7']);
    expect(data.has('image')).toBe(false);
    expect(data.has('_method')).toBe(false);
  });

  it('adds the resized image as a PNG file and _method=PUT for an update', () => {
    const png = new Blob(['png'], { type: 'image/png' });
    const data = productFormData(valid, png, { method: 'PUT' });
    expect(data.get('_method')).toBe('PUT');
    const image = data.get('image');
    expect(image).toBeInstanceOf(File);
    expect((image as File).name).toBe('product.png');
    expect((image as File).type).toBe('image/png');
  });
});

describe('productToFormValues', () => {
  it('fills the form from a product, unlimited stock as an empty box', () => {
    const values = productToFormValues({
      ...makeProduct({ name: 'Bee', price: 2.5, stock: null, weight: 1.2, related_ids: [4] }),
      archived: false,
    });
    expect(values).toMatchObject({
      name: 'Bee',
      price: '2.5',
      stock: '',
      weight: '1.2',
      related_ids: [4],
    });
  });
});

describe('serverFieldErrors', () => {
  it('keeps the first message per field and files related_ids.N under related_ids', () => {
    expect(
      serverFieldErrors({
        name: ['The name is taken.', 'second'],
        'related_ids.1': ['A bundle cannot contain another bundle.'],
        image: ['The image must be PNG, JPEG, WebP or GIF.'],
        unknown_field: ['ignored'],
      }),
    ).toEqual({
      name: 'The name is taken.',
      related_ids: 'A bundle cannot contain another bundle.',
      image: 'The image must be PNG, JPEG, WebP or GIF.',
    });
  });
});

describe('a drop in the product form', () => {
  // the tests run in UTC (TZ unset): the datetime-local value is UTC here
  const drop = makeProduct({
    release_at: '2026-11-27T03:00:00Z',
    released: false,
    max_per_account: 2,
  });

  it('fills Release at in local time and Max per account from the product', () => {
    const values = productToFormValues({ ...drop, archived: false });
    expect(values.release_at).toBe(toDateTimeLocal(new Date('2026-11-27T03:00:00Z')));
    expect(values.max_per_account).toBe('2');
    expect(productToFormValues({ ...makeProduct(), archived: false })).toMatchObject({
      release_at: '',
      max_per_account: '',
    });
  });

  it('reads a datetime-local value in local time and sends it as RFC 3339 in UTC', () => {
    const local = '2026-11-28T10:30';
    const body = productFormData({ ...valid, release_at: local, max_per_account: '1' }, null);
    expect(body.get('release_at')).toBe(new Date(2026, 10, 28, 10, 30).toISOString());
    expect(body.get('release_at')).toMatch(/Z$/);
    expect(body.get('max_per_account')).toBe('1');
  });

  it('leaves both out of a new product without them', () => {
    const body = productFormData(valid, null);
    expect(body.has('release_at')).toBe(false);
    expect(body.has('max_per_account')).toBe(false);
  });

  it('leaves them out of an update that did not change them, and sends an emptied one empty', () => {
    const initial = productToFormValues({ ...drop, archived: false });
    const untouched = productFormData(initial, null, { method: 'PUT', initial });
    expect(untouched.has('release_at')).toBe(false);
    expect(untouched.has('max_per_account')).toBe(false);

    const cleared = productFormData({ ...initial, release_at: '', max_per_account: '' }, null, {
      method: 'PUT',
      initial,
    });
    expect(cleared.get('release_at')).toBe('');
    expect(cleared.get('max_per_account')).toBe('');
  });

  it('wants a date and time, and a limit from 1 to 20', () => {
    expect(validateProductForm({ ...valid, release_at: 'soon', max_per_account: '21' })).toEqual({
      release_at: 'Enter a date and a time (empty = on sale now).',
      max_per_account: 'The limit must be a whole number from 1 to 20 (empty = no limit).',
    });
    expect(validateProductForm({ ...valid, max_per_account: '0' })).toHaveProperty(
      'max_per_account',
    );
    expect(
      validateProductForm({ ...valid, release_at: '2026-11-28T10:30', max_per_account: '20' }),
    ).toEqual({});
  });

  it('files the server’s 422 messages for both under their fields', () => {
    expect(
      serverFieldErrors({
        release_at: ['The release time must be RFC 3339.'],
        max_per_account: ['The limit is 1 to 20.'],
      }),
    ).toEqual({
      release_at: 'The release time must be RFC 3339.',
      max_per_account: 'The limit is 1 to 20.',
    });
  });
});
