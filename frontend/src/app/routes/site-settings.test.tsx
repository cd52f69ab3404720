import { cleanup, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { AboutRoute } from '@/app/routes/about';
import { FaqRoute } from '@/app/routes/faq';
import { HomeRoute } from '@/app/routes/home';
import { HowItWorksRoute } from '@/app/routes/how-it-works';
import { PrivacyPolicyRoute } from '@/app/routes/privacy-policy';
import { ProductRoute } from '@/app/routes/product';
import { RefundPolicyRoute } from '@/app/routes/refund-policy';
import { SuccessRoute } from '@/app/routes/success';
import { TermsRoute } from '@/app/routes/terms';
import { useChatWidgetStore } from '@/features/chat/stores/chat-widget-store';
import { stubApi } from '@/testing/api-stub';
import { makeDeliverySteps, makeProduct } from '@/testing/factories';
import { jsonResponse, queryClientWithProducts, renderWithProviders } from '@/testing/test-utils';
import type { Site } from '@/types/api';

vi.mock('canvas-confetti', () => ({ default: vi.fn() }));

const INVITE = 'https://discord.gg/gardenshop';
const bee = makeProduct({ id: 3, name: 'Bee' });

function site(overrides: Partial<Site> = {}): Site {
  const settings = {
    name: 'Garden Shop',
    reviews_url: '',
    paypal_enabled: false,
    discord_invite_url: INVITE,
    delivery_minutes: 25,
    evidence_retention_days: 120,
    languages: ['en', 'es', 'pt-BR', 'fr', 'de'],
    currencies: [
      { code: 'USD', rate: '1', as_of: null, minor_units: 2, rounding: 'minor', methods: ['card'] },
    ],
    ...overrides,
  };
  // the script follows the settings, as the server words it
  return {
    ...settings,
    delivery_steps: makeDeliverySteps(settings.discord_invite_url, settings.delivery_minutes),
  };
}

/** The policy as the server keeps it (crates/app/src/refund_policy.rs), shortened. */
const REFUND_POLICY = {
  version: '2026-11-01',
  intro: 'Our items are digital and delivered by hand.',
  sections: [
    { heading: 'Completed purchases', text: 'We do not offer refunds for completed purchases.' },
    { heading: 'How to ask for a refund', text: 'Contact us (the ways are below).' },
  ],
};

type Page = { name: string; element: ReactElement; url?: string; path?: string };

/** Every page that states the delivery time or tells a buyer to join the Discord server. */
const PAGES: Page[] = [
  { name: 'home', element: <HomeRoute /> },
  { name: 'product', element: <ProductRoute />, url: '/product/3', path: '/product/:id' },
  { name: 'how it works', element: <HowItWorksRoute /> },
  { name: 'about', element: <AboutRoute /> },
  { name: 'terms', element: <TermsRoute /> },
  { name: 'faq', element: <FaqRoute /> },
  { name: 'refund policy', element: <RefundPolicyRoute /> },
  { name: 'privacy policy', element: <PrivacyPolicyRoute /> },
  { name: 'success', element: <SuccessRoute />, url: '/success', path: '/success' },
];

/** Renders a page with GET /api/site answering `settings`, and waits for its answer. */
async function renderPage(page: Page, settings: Site) {
  const api = stubApi({
    'GET /site': () => jsonResponse(settings),
    'GET /refund-policy': () => jsonResponse(REFUND_POLICY),
  });
  const rendered = renderWithProviders(page.element, {
    url: page.url ?? '/',
    path: page.path ?? '/',
    queryClient: queryClientWithProducts([bee]),
  });
  await vi.waitFor(() => expect(api.callsTo('GET /site')).toHaveLength(1));
  await vi.waitFor(() =>
    expect(rendered.queryClient.getQueryState(['site'])?.status).toBe('success'),
  );
  return rendered;
}

const pageText = () => document.body.textContent ?? '';

describe('the delivery promise reads delivery_minutes from /api/site', () => {
  const stating = PAGES.filter((page) => !['refund policy', 'privacy policy'].includes(page.name));

  it.each(stating)('$name', async (page) => {
    await renderPage(page, site({ delivery_minutes: 25 }));
    await vi.waitFor(() => expect(pageText()).toContain('under 25 minutes'));
    expect(pageText()).not.toMatch(/\b10 minutes/);
  });

  it('names no number before the settings arrive', () => {
    stubApi({ 'GET /site': () => new Promise<Response>(() => {}) });
    renderWithProviders(<HowItWorksRoute />);
    expect(screen.getAllByTestId('delivery-time')[0]).toHaveTextContent('a few minutes');
    expect(pageText()).not.toMatch(/\d+ minutes/);
  });
});

describe('every sentence that says to join the Discord server links the invite', () => {
  const telling = PAGES.filter((page) => !['home', 'product'].includes(page.name));

  it.each(telling)('$name links discord_invite_url', async (page) => {
    await renderPage(page, site());
    const links = await screen.findAllByRole('link', { name: /Discord server/ });
    for (const link of links) {
      expect(link).toHaveAttribute('href', INVITE);
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAccessibleName(/^(Join )?our Discord server ?\(opens in a new tab\)$/);
    }
    // no mention of the server anywhere that is not the link itself
    const mentions = pageText().split('Discord server').length - 1;
    expect(mentions).toBe(links.length);
  });

  it.each(telling)('$name points to the help chat when no invite is set', async (page) => {
    useChatWidgetStore.setState({ isOpen: false });
    const { user } = await renderPage(page, site({ discord_invite_url: null }));
    expect(pageText()).not.toContain('Discord server');
    expect(screen.queryByRole('link', { name: /Discord/ })).toBeNull();
    const buttons = screen.getAllByRole('button', { name: /help chat/i });
    const first = buttons[0];
    if (!first) throw new Error('no help chat button');
    await user.click(first);
    expect(useChatWidgetStore.getState().isOpen).toBe(true);
  });

  it('the success page’s next steps: Discord step with the invite, none without', async () => {
    await renderPage(PAGES.at(-1) as Page, site());
    const steps = within(await screen.findByRole('region', { name: 'What happens next' }));
    expect(steps.getByRole('link', { name: /our Discord server/ })).toHaveAttribute('href', INVITE);
    expect(steps.getAllByRole('listitem')[0]).toHaveTextContent(/1\. Join our Discord server/);
    cleanup();
    await renderPage(PAGES.at(-1) as Page, site({ discord_invite_url: null }));
    const without = within(await screen.findByRole('region', { name: 'What happens next' }));
    expect(without.getAllByRole('listitem')[0]).toHaveTextContent(/1\. Wait for a member of staff/);
  });
});

describe('the refund policy page reads the policy from the server', () => {
  it('shows its sections and version', async () => {
    await renderPage({ name: 'refund policy', element: <RefundPolicyRoute /> }, site());
    expect(await screen.findByRole('heading', { name: 'Completed purchases' })).toBeInTheDocument();
    expect(screen.getByText('We do not offer refunds for completed purchases.')).toBeVisible();
    expect(screen.getByTestId('refund-policy-version')).toHaveTextContent(
      'In effect since November 1, 2026 (version 2026-11-01).',
    );
  });
});

describe('the privacy policy says how long an erased buyer’s evidence is kept', () => {
  it('reads evidence_retention_days from /api/site', async () => {
    await renderPage(
      { name: 'privacy policy', element: <PrivacyPolicyRoute /> },
      site({ evidence_retention_days: 90 }),
    );
    expect(await screen.findByTestId('evidence-retention')).toHaveTextContent(
      "is kept apart for 90 days after that order's payment, and while a dispute of it is open",
    );
  });
});
