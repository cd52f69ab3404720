import { useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { AppLayout } from '@/app/layout/app-layout';
import { AppLoading } from '@/app/layout/app-loading';
import { RouteError } from '@/app/layout/route-error';
import { paths } from '@/config/paths';

/**
 * One lazy-loaded module per page, so the storefront never downloads what it does not show.
 * Later pages (checkout, auth, profile, proofs, admin) plug in here the same way.
 */
export const routes: RouteObject[] = [
  {
    path: paths.home.path,
    element: <AppLayout />,
    errorElement: <RouteError />,
    // Shown only while the first page's code downloads.
    hydrateFallbackElement: <AppLoading />,
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./routes/home')).HomeRoute }),
      },
      {
        path: paths.product.path,
        lazy: async () => ({ Component: (await import('./routes/product')).ProductRoute }),
      },
      {
        path: paths.about.path,
        lazy: async () => ({ Component: (await import('./routes/about')).AboutRoute }),
      },
      {
        path: paths.howItWorks.path,
        lazy: async () => ({ Component: (await import('./routes/how-it-works')).HowItWorksRoute }),
      },
      {
        path: paths.faq.path,
        lazy: async () => ({ Component: (await import('./routes/faq')).FaqRoute }),
      },
      {
        path: paths.terms.path,
        lazy: async () => ({ Component: (await import('./routes/terms')).TermsRoute }),
      },
      {
        path: paths.refundPolicy.path,
        lazy: async () => ({
          Component: (await import('./routes/refund-policy')).RefundPolicyRoute,
        }),
      },
      {
        path: paths.privacyPolicy.path,
        lazy: async () => ({
          Component: (await import('./routes/privacy-policy')).PrivacyPolicyRoute,
        }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundRoute }),
      },
    ],
  },
];

export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
