import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';

import type { Proof } from '@/features/proofs/types';
import { normalizeProof } from '@/features/proofs/utils/normalize-proof';
import { proofKeys } from './get-proofs';

export type NewProof = { items: string; images: File[] };

/** POST /api/proofs (staff): multipart `items` and `images[]`; 422 with per-field messages. */
export async function createProof({ items, images }: NewProof): Promise<Proof> {
  const form = new FormData();
  form.append('items', items);
  for (const image of images) form.append('images[]', image);
  return normalizeProof(await api.post('/proofs', { body: form }));
}

/** Adds a proof; the new one goes on top of the list (docs/product.md, Behaviour). */
export function useCreateProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProof,
    onSuccess: (proof) => {
      queryClient.setQueryData<Proof[]>(proofKeys.all, (current = []) => [
        proof,
        ...current.filter((known) => known.id !== proof.id),
      ]);
      toast.success('Proof added.');
    },
    onError: (error) => console.error('Could not add the proof:', error),
  });
}
