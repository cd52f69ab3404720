import type { QueryClient } from '@tanstack/react-query';

import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';

export function App({ queryClient }: { queryClient?: QueryClient }) {
  return (
    <AppProvider queryClient={queryClient}>
      <AppRouter />
    </AppProvider>
  );
}
