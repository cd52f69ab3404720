import { describe, expect, it } from 'vitest';

import { PICTURE_SIZES, pictureSources } from '@/features/catalog/utils/picture-sources';

const STORED = '/media/products/0123456789abcdef0123456789abcdef.png';
const STEM = '/media/products/0123456789abcdef0123456789abcdef';

describe('pictureSources', () => {
  it('offers the WebP copies of a stored product picture in three widths', () => {
    expect(pictureSources(STORED, 'card')).toEqual({
      src: `${STEM}-300.webp`,
      srcSet: `${STEM}-150.webp 150w, ${STEM}-300.webp 300w, ${STEM}-600.webp 600w`,
      sizes: PICTURE_SIZES.card,
    });
    expect(pictureSources(STORED, 'detail').sizes).toBe('(min-width: 768px) 420px, 84vw');
    expect(pictureSources(STORED, 'thumb').sizes).toBe('56px');
  });

  it('uses any other address as it is', () => {
    for (const image of [
      'https://cdn.example/raccoon.png',
      '/media/r.png',
      '/media/proofs/0123abcd.png',
      '/media/products/0123abcd.webp',
      `${STORED}?v=2`,
    ]) {
      expect(pictureSources(image, 'card')).toEqual({ src: image });
    }
  });
});
