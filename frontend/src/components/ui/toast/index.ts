export { toast, useToastStore } from './toast-store';
export type { Toast, ToastTone } from './toast-store';
export { Toaster, ToastSlot } from './toaster';
