import { useMutation, useQueryClient } from '@tanstack/react-query';

import { toast } from '@/components/ui/toast';
import { api } from '@/lib/api-client';
import type { Schemas } from '@/types/api';

import type { Proof } from '@/features/proofs/types';
import { proofKeys } from './get-proofs';

/** DELETE /api/proofs/{id} (staff). */
export function deleteProof(id: number): Promise<Schemas['Message']> {
  return api.delete('/proofs/{id}', { params: { path: { id } } });
}

/** Removes a proof from the list only once the server confirms (docs/product.md, Behaviour). */
export function useDeleteProof() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProof,
    onSuccess: (_data, id) => {
      queryClient.setQueryData<Proof[]>(proofKeys.all, (current) =>
        current?.filter((proof) => proof.id !== id),
      );
      toast.success('Proof deleted.');
    },
    onError: (error) => {
      console.error('Could not delete the proof:', error);
      toast.error('Failed to delete proof.');
    },
  });
}
