import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

import type { ProofChoice } from '@/features/admin-orders/api/get-proof-choices';

export type ProofUpload = { items: string; images: File[] };

/**
 * POST /api/proofs (staff), the call the proofs page makes: multipart `items` and `images[]`;
 * 201 with the proof, 422 with `errors.items` / `errors.images`. From "Mark delivered", so the
 * proof is added without leaving the queue.
 */
export function uploadProof({ items, images }: ProofUpload): Promise<ProofChoice> {
  const form = new FormData();
  form.append('items', items);
  for (const image of images) form.append('images[]', image);
  return api
    .post('/proofs', { body: form })
    .then(({ id, items: what, images: pictures }) => ({ id, items: what, images: pictures }));
}

/** Uploads a proof; the queue's proof choices and the proofs page's list learn of it. */
export function useUploadProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadProof,
    onSuccess: (proof) => {
      queryClient.setQueryData<ProofChoice[]>(queryKeys.admin.proofChoices, (current = []) => [
        proof,
        ...current.filter((known) => known.id !== proof.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.proofs });
    },
    onError: (error) => console.error('Could not upload the proof:', error),
  });
}
