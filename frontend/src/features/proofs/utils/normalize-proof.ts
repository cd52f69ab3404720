import type { Proof, ProofFromApi } from '@/features/proofs/types';

/** Image URLs from a list or a JSON-encoded list; anything unreadable gives none. */
export function proofImages(images: ProofFromApi['images']): string[] {
  let list: unknown = images;
  if (typeof images === 'string') {
    try {
      list = JSON.parse(images);
    } catch {
      console.error('A proof has unreadable images:', images);
      return [];
    }
  }
  return Array.isArray(list)
    ? list.filter((url): url is string => typeof url === 'string' && url.length > 0)
    : [];
}

export function normalizeProof(proof: ProofFromApi): Proof {
  return { ...proof, images: proofImages(proof.images) };
}

/** 1, 2 or 3 columns for 1, 2 or more images (docs/product.md, Screens). */
export function proofGridColumns(imageCount: number): 1 | 2 | 3 {
  if (imageCount <= 1) return 1;
  return imageCount === 2 ? 2 : 3;
}
