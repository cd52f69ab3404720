/**
 * react-i18next imports `useSyncExternalStore` from the `use-sync-external-store/shim` package,
 * a copy for React before 18; a production build takes React's own (vite.config.ts), 0.5 kB less
 * in the entry chunk (issue 36's budget).
 */
export { useSyncExternalStore } from 'react';
