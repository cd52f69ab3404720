import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ProductImage } from '@/features/catalog/components/product-image';
import { PICTURE_SIZES } from '@/features/catalog/utils/picture-sources';

const STORED = '/media/products/abcdef0123456789abcdef0123456789.png';
const STEM = '/media/products/abcdef0123456789abcdef0123456789';

describe('ProductImage', () => {
  it('draws a stored picture from its WebP copies with srcset and sizes', () => {
    render(<ProductImage product={{ name: 'Raccoon', image: STORED }} />);
    const img = screen.getByRole('img', { name: 'Raccoon' });
    expect(img).toHaveAttribute('src', `${STEM}-300.webp`);
    expect(img).toHaveAttribute(
      'srcset',
      `${STEM}-150.webp 150w, ${STEM}-300.webp 300w, ${STEM}-600.webp 600w`,
    );
    expect(img).toHaveAttribute('sizes', PICTURE_SIZES.card);
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).not.toHaveAttribute('fetchpriority');
  });

  it('fetches the page’s main picture first and at once', () => {
    render(<ProductImage product={{ name: 'Raccoon', image: STORED }} size="detail" priority />);
    const img = screen.getByRole('img', { name: 'Raccoon' });
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).toHaveAttribute('loading', 'eager');
    expect(img).toHaveAttribute('sizes', PICTURE_SIZES.detail);
  });

  it('falls back to the stored PNG, then to the sprout', () => {
    render(<ProductImage product={{ name: 'Raccoon', image: STORED }} />);
    fireEvent.error(screen.getByRole('img', { name: 'Raccoon' }));
    const png = screen.getByRole('img', { name: 'Raccoon' });
    expect(png).toHaveAttribute('src', STORED);
    expect(png).not.toHaveAttribute('srcset');
    fireEvent.error(png);
    expect(screen.getByRole('img', { name: 'Raccoon' }).tagName).toBe('DIV');
  });
});
