/**
 * Product pictures are stored as PNG (`/media/products/{hash}.png`, what the API names and the
 * admin edits); the server also serves WebP copies of them, `{hash}-{width}.webp`, in these
 * widths (never wider than the stored picture). Browsers get the WebP copies through
 * `srcset`/`sizes`, so a phone downloads a picture of the size it shows.
 */
export const PICTURE_WIDTHS = [150, 300, 600] as const;

/**
 * How wide each kind of product picture is drawn (84 % of its card in the product grid: 1, 2, 3
 * or 4 columns, the category sidebar from 900 px; 84 % of a 1040 px two-column page for the
 * detail). The server's preload of the first picture (`routes/spa.rs`) uses the same strings:
 * keep them equal, or the browser fetches the picture twice.
 */
export const PICTURE_SIZES = {
  card: '(min-width: 1100px) 200px, (min-width: 900px) 20vw, (min-width: 640px) 28vw, (min-width: 340px) 42vw, 80vw',
  detail: '(min-width: 768px) 420px, 84vw',
  thumb: '56px',
} as const;

export type PictureSize = keyof typeof PICTURE_SIZES;

export type PictureSources = { src: string; srcSet?: string; sizes?: string };

const STORED_PICTURE = /^\/media\/products\/([0-9a-f]+)\.png$/;

/** The `src`, `srcSet` and `sizes` of a product picture; other addresses are used as they are. */
export function pictureSources(image: string, size: PictureSize): PictureSources {
  const match = STORED_PICTURE.exec(image);
  if (!match) return { src: image };
  const stem = `/media/products/${match[1]}`;
  return {
    src: `${stem}-300.webp`,
    srcSet: PICTURE_WIDTHS.map((width) => `${stem}-${width}.webp ${width}w`).join(', '),
    sizes: PICTURE_SIZES[size],
  };
}
