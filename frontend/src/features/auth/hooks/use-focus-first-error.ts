import { useEffect, type RefObject } from 'react';

/** Moves focus to the first invalid input of the form whenever new field errors arrive. */
export function useFocusFirstError(
  formRef: RefObject<HTMLFormElement | null>,
  errors: Record<string, string>,
) {
  const key = Object.entries(errors).join('|');
  useEffect(() => {
    if (!key) return;
    formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [formRef, key]);
}
