import { useSyncExternalStore } from 'react';

/** 1 column on phones, 2 from small screens (640 px), 3 from large ones (1024 px): docs/product.md, Screens. */
const SMALL = '(min-width: 640px)';
const LARGE = '(min-width: 1024px)';

function columnsNow(): number {
  if (typeof window.matchMedia !== 'function') return 1;
  if (window.matchMedia(LARGE).matches) return 3;
  if (window.matchMedia(SMALL).matches) return 2;
  return 1;
}

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const queries = [window.matchMedia(SMALL), window.matchMedia(LARGE)];
  for (const query of queries) query.addEventListener('change', onChange);
  return () => {
    for (const query of queries) query.removeEventListener('change', onChange);
  };
}

/** How many product cards fit side by side, following the window's width. */
export function useGridColumns(): number {
  return useSyncExternalStore(subscribe, columnsNow, () => 1);
}
