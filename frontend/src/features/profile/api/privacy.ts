import { useMutation } from '@tanstack/react-query';

import { env } from '@/config/env';
import { toast } from '@/components/ui/toast';
import { api, ApiError, errorMessage } from '@/lib/api-client';

/** GET /api/profile/export: everything the shop keeps about the shopper, as a JSON file. */
export async function downloadMyData(): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`${env.API_URL}/profile/export`, { credentials: 'include' });
  } catch {
    throw new ApiError(0, 'We could not reach the shop. Check your connection and try again.');
  }
  if (!response.ok) {
    throw new ApiError(response.status, `The download failed (error ${response.status}).`);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'garden-shop-my-data.json';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

export function useDownloadMyData() {
  return useMutation({
    mutationFn: downloadMyData,
    onError: (error) => toast.error(errorMessage(error)),
  });
}

/** DELETE /api/profile: erases the account (orders stay for the books, naming no one). */
export async function deleteMyAccount(password: string): Promise<void> {
  await api.delete('/profile', { body: { password } });
}

/** Deletes the account; the server has ended every session of it (see YourData for the rest). */
export function useDeleteMyAccount() {
  return useMutation({
    mutationFn: deleteMyAccount,
    onSuccess: () => toast.success('Your account is deleted. Goodbye!'),
  });
}
