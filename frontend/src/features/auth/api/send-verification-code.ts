import { useMutation } from '@tanstack/react-query';

import { api } from '@/lib/api-client';

import type { Registration } from '@/features/auth/types';
import type { Schemas } from '@/types/api';

/** The message to show, and `resend_after`: seconds before another code may be asked for. */
export type SendVerificationCodeResponse = Schemas['CodeSent'];

/**
 * POST /api/send-verification-code: starts (or restarts) a pending sign-up and mails a 6-digit
 * code. An address that already has an account gets the same answer (its owner is mailed
 * instead). 422 per field, 429 when asked again too soon or too often.
 */
export function sendVerificationCode(input: Registration): Promise<SendVerificationCodeResponse> {
  return api.post('/send-verification-code', { body: input });
}

export function useSendVerificationCode() {
  return useMutation({ mutationFn: sendVerificationCode });
}
