/** Product pictures are at most this wide and high (docs/product.md, Validation and Constants and limits). */
export const PRODUCT_IMAGE_MAX = 300;

export class NotAnImageError extends Error {
  constructor() {
    super('Please choose an image file (PNG, JPEG, WebP or GIF).');
    this.name = 'NotAnImageError';
  }
}

/** The size that fits `width` x `height` inside `max` x `max`, keeping the shape; never enlarged. */
export function fitWithin(
  width: number,
  height: number,
  max = PRODUCT_IMAGE_MAX,
): { width: number; height: number } {
  const scale = Math.min(1, max / width, max / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Decodes the file without a URL: the shop's Content-Security-Policy allows images only from
 * itself and data: URLs, so a blob: URL in an <img> would be refused.
 */
async function decode(file: Blob): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(file);
  } catch {
    throw new NotAnImageError();
  }
}

/** The picture as a data: URL, for a preview the Content-Security-Policy allows. */
export function toDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The picture could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Draws the chosen picture on a canvas that fits within 300x300 and returns it as a PNG
 * (lossless, so "quality 100"). The server decodes and re-encodes it anyway: this only keeps
 * uploads small.
 */
export async function resizeImageToPng(file: File): Promise<Blob> {
  if (!file.type.startsWith('image/')) throw new NotAnImageError();
  const image = await decode(file);
  const { width, height } = fitWithin(image.width, image.height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot resize images.');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  image.close();
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be converted.'))),
      'image/png',
      1,
    );
  });
}
