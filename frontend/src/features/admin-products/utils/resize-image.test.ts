import { afterEach, describe, expect, it, vi } from 'vitest';

import { fitWithin, NotAnImageError, resizeImageToPng } from './resize-image';

describe('fitWithin', () => {
  it('fits within 300x300 keeping the shape, never enlarging', () => {
    expect(fitWithin(600, 300)).toEqual({ width: 300, height: 150 });
    expect(fitWithin(1000, 4000)).toEqual({ width: 75, height: 300 });
    expect(fitWithin(120, 80)).toEqual({ width: 120, height: 80 });
    expect(fitWithin(3000, 1)).toEqual({ width: 300, height: 1 });
  });
});

/** createImageBitmap that decodes to the given size, or fails like a broken file. */
function stubDecoder(size: { width: number; height: number } | 'broken') {
  const close = vi.fn();
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async () => {
      if (size === 'broken') throw new DOMException('The source image could not be decoded.');
      return { ...size, close };
    }),
  );
  return { close };
}

function stubCanvas() {
  const drawImage = vi.fn();
  const canvas = {
    width: 0,
    height: 0,
    getContext: vi.fn(() => ({ drawImage, imageSmoothingQuality: 'low' })),
    toBlob: vi.fn((done: (blob: Blob) => void, type: string) => done(new Blob(['png'], { type }))),
  };
  const create = document.createElement.bind(document);
  vi.spyOn(document, 'createElement').mockImplementation((tag: string) =>
    tag === 'canvas' ? (canvas as unknown as HTMLCanvasElement) : create(tag),
  );
  return { canvas, drawImage };
}

describe('resizeImageToPng', () => {
  afterEach(() => vi.restoreAllMocks());

  it('draws the picture on a canvas that fits 300x300 and returns a lossless PNG', async () => {
    const { close } = stubDecoder({ width: 1200, height: 600 });
    const { canvas, drawImage } = stubCanvas();
    const blob = await resizeImageToPng(new File(['jpeg'], 'raccoon.jpg', { type: 'image/jpeg' }));
    expect(canvas.width).toBe(300);
    expect(canvas.height).toBe(150);
    expect(drawImage).toHaveBeenCalledWith(expect.anything(), 0, 0, 300, 150);
    expect(canvas.toBlob).toHaveBeenCalledWith(expect.any(Function), 'image/png', 1);
    expect(blob.type).toBe('image/png');
    expect(close).toHaveBeenCalled();
  });

  it('refuses a file that is not an image', async () => {
    await expect(
      resizeImageToPng(new File(['hello'], 'notes.txt', { type: 'text/plain' })),
    ).rejects.toBeInstanceOf(NotAnImageError);
  });

  it('refuses a file that says it is an image but does not decode', async () => {
    stubDecoder('broken');
    stubCanvas();
    await expect(
      resizeImageToPng(new File(['text'], 'fake.png', { type: 'image/png' })),
    ).rejects.toThrow('Please choose an image file');
  });
});
