import { useState } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';

import { AppLayout } from '@/app/layout/app-layout';
import { AppLoading } from '@/app/layout/app-loading';
import { RouteError } from '@/app/layout/route-error';
import { paths } from '@/config/paths';
import { SessionGate } from '@/features/auth/components/session-gate';
import { loadNamespaces } from '@/lib/i18n/i18n';

/**
 * A page's module and the message files it needs beyond `translation` (`pages`: orders,
 * accounts, reviews, proofs; `info`: the static pages' long texts), fetched together.
 */
async function withMessages<T>(page: Promise<T>, ...namespaces: string[]): Promise<T> {
  const [module] = await Promise.all([page, loadNamespaces(...namespaces)]);
  return module;
}

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
        lazy: async () => ({
          Component: (await withMessages(import('./routes/about'), 'info')).AboutRoute,
        }),
      },
      {
        path: paths.howItWorks.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/how-it-works'), 'info', 'pages'))
            .HowItWorksRoute,
        }),
      },
      {
        path: paths.faq.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/faq'), 'info', 'pages')).FaqRoute,
        }),
      },
      {
        path: paths.terms.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/terms'), 'info')).TermsRoute,
        }),
      },
      {
        path: paths.refundPolicy.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/refund-policy'), 'info'))
            .RefundPolicyRoute,
        }),
      },
      {
        path: paths.privacyPolicy.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/privacy-policy'), 'info'))
            .PrivacyPolicyRoute,
        }),
      },
      {
        path: paths.checkout.path,
        lazy: async () => ({ Component: (await import('./routes/checkout')).CheckoutRoute }),
      },
      {
        path: paths.discordCallback.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/discord-callback'), 'pages'))
            .DiscordCallbackRoute,
        }),
      },
      {
        path: paths.success.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/success'), 'pages')).SuccessRoute,
        }),
      },
      {
        path: paths.order.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/order'), 'pages')).OrderRoute,
        }),
      },
      {
        path: paths.reviews.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/reviews'), 'pages')).ReviewsRoute,
        }),
      },
      {
        path: paths.cancel.path,
        lazy: async () => ({ Component: (await import('./routes/cancel')).CancelRoute }),
      },
      {
        path: paths.login.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/login'), 'pages')).LoginRoute,
        }),
      },
      {
        path: paths.register.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/register'), 'pages')).RegisterRoute,
        }),
      },
      {
        path: paths.verifyEmail.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/verify-email'), 'pages'))
            .VerifyEmailRoute,
        }),
      },
      {
        path: paths.forgotPassword.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/forgot-password'), 'pages'))
            .ForgotPasswordRoute,
        }),
      },
      {
        path: paths.resetPassword.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/reset-password'), 'pages'))
            .ResetPasswordRoute,
        }),
      },
      {
        path: paths.profile.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/profile'), 'pages')).ProfileRoute,
        }),
      },
      {
        path: paths.proofs.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/proofs'), 'pages')).ProofsRoute,
        }),
      },
      {
        path: paths.adminProducts.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-products')).AdminProductsRoute,
        }),
      },
      {
        path: paths.adminInventory.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-inventory')).AdminInventoryRoute,
        }),
      },
      {
        path: paths.adminOrders.path,
        lazy: async () => ({
          Component: (await withMessages(import('./routes/admin-orders'), 'pages'))
            .AdminOrdersRoute,
        }),
      },
      {
        path: paths.adminBlocklist.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-blocklist')).AdminBlocklistRoute,
        }),
      },
      {
        path: paths.adminDisputes.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-disputes')).AdminDisputesRoute,
        }),
      },
      {
        path: paths.adminAudit.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-audit')).AdminAuditRoute,
        }),
      },
      {
        path: paths.adminPromoCodes.path,
        lazy: async () => ({
          Component: (await import('./routes/admin-promo-codes')).AdminPromoCodesRoute,
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
  // The first page's code downloads while the session check runs; both show one loading screen.
  return (
    <SessionGate fallback={<AppLoading />}>
      <RouterProvider router={router} />
    </SessionGate>
  );
}
