import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

import { OrderRoute } from '@/app/routes/order';
import { RefundPolicyRoute, TRANSLATED_REFUND_POLICY } from '@/app/routes/refund-policy';
import type { TrackedOrder } from '@/features/checkout/api/get-tracked-order';
import { stubApi } from '@/testing/api-stub';
import { makeDeliverySteps, makeOrderSteps } from '@/testing/factories';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';
import type { Site } from '@/types/api';

import englishInfo from '@/locales/en/info.json';

const INVITE = 'https://discord.gg/gardenshop';

function site(): Site {
  return {
    name: 'Garden Shop',
    reviews_url: '',
    paypal_enabled: false,
    discord_invite_url: INVITE,
    delivery_minutes: 10,
    evidence_retention_days: 120,
    delivery_steps: makeDeliverySteps(INVITE),
    languages: ['en', 'es', 'pt-BR', 'fr', 'de'],
    currencies: [
      { code: 'USD', rate: '1', as_of: null, minor_units: 2, rounding: 'minor', methods: ['card'] },
      {
        code: 'BRL',
        rate: '5.34144',
        as_of: null,
        minor_units: 2,
        rounding: 'minor',
        methods: ['card'],
      },
      {
        code: 'EUR',
        rate: '0.9',
        as_of: null,
        minor_units: 2,
        rounding: 'minor',
        methods: ['card'],
      },
    ],
  };
}

/** Paid in BRL: two owls at R$ 26,65, R$ 4,13 of fee; $10.75 of record at 5.34144. */
function paidInReais(overrides: Partial<TrackedOrder> = {}): TrackedOrder {
  return {
    id: 42,
    status: 'paid',
    status_label: 'Paid',
    language: 'pt-BR',
    items: [{ id: 1, name: 'Golden Owl', qty: 2, unit_price: 4.99, unit_price_paid: 26.65 }],
    subtotal: 9.98,
    discount: 0,
    fee: 0.77,
    total: 10.75,
    currency: 'BRL',
    amount_paid: 57.43,
    rate: '5.34144',
    roblox_username: 'Builder_Bob',
    created_at: '2026-11-21T10:00:00Z',
    paid_at: '2026-11-21T10:01:00Z',
    delivered_at: null,
    timeline: [{ status: 'paid', at: '2026-11-21T10:01:00Z' }],
    queue_position: 4,
    over_promise: false,
    join_by: null,
    being_checked: false,
    awaiting_payment: false,
    pay_by: null,
    estimate_minutes: 20,
    delivery: {
      staff_name: null,
      private_server_url: null,
      claimed_at: null,
      buyer_ready_at: null,
      received_at: null,
      ticket_url: null,
      ticket_problem: null,
      proof_picture: null,
      released: null,
      no_show: false,
    },
    steps: makeOrderSteps(INVITE),
    ...overrides,
  };
}

async function renderOrder(order: TrackedOrder, language: string) {
  await i18next.changeLanguage(language);
  stubApi({
    'GET /orders/42': () => jsonResponse(order),
    'GET /orders/42/messages': () => jsonResponse([]),
    'GET /site': () => jsonResponse(site()),
  });
  renderWithProviders(<OrderRoute />, { url: '/orders/42?key=k', path: '/orders/:id' });
  return screen.findByRole('heading', { level: 1 });
}

const text = () => document.body.textContent ?? '';

describe('the order page in the viewer’s language', () => {
  it('reads Portuguese, with the amounts paid in reais and the dollars of record beside them', async () => {
    expect(await renderOrder(paidInReais(), 'pt-BR')).toHaveTextContent('Pedido nº 42');
    expect(screen.getByTestId('order-page-status')).toHaveTextContent('Pago');
    expect(await screen.findByTestId('order-amount-paid')).toHaveTextContent(/^R\$\s57,43$/);
    const items = within(screen.getByRole('list', { name: 'Itens' }));
    expect(items.getByRole('listitem')).toHaveTextContent(/2 × Golden Owl\s*R\$\s53,30/);
    expect(screen.getByTestId('order-rate')).toHaveTextContent(/1 USD valia 5,34144 BRL/);
    expect(text()).toMatch(/Total\s*US\$\s10,75/);
    // the script is worded by its keys, the queue and timeline too
    expect(text()).toContain('Aguarde um membro da equipe');
    expect(text()).toContain('3 pedidos antes do seu');
    expect(text()).not.toMatch(/Wait for a member of staff|orders before yours|Processing fee/);
  });

  it('reads German, a base-currency order in one list', async () => {
    const euros = paidInReais({ currency: 'USD', amount_paid: 10.75, rate: '1' });
    euros.items = [{ id: 1, name: 'Golden Owl', qty: 2, unit_price: 4.99, unit_price_paid: 4.99 }];
    expect(await renderOrder(euros, 'de')).toHaveTextContent('Bestellung Nr. 42');
    expect(await screen.findByTestId('order-amount-paid')).toHaveTextContent(/^10,75\s\$$/);
    expect(text()).toMatch(/Bearbeitungsgebühr\s*0,77\s\$/);
    expect(screen.queryByTestId('order-rate')).toBeNull();
    expect(text()).toContain('Warte auf ein Teammitglied');
  });

  it('says a voucher payment is awaited until its deadline, in the reader’s language', async () => {
    const voucher = paidInReais({
      status: 'pending',
      status_label: 'Pending',
      paid_at: null,
      awaiting_payment: true,
      pay_by: '2026-11-24T23:59:00Z',
    });
    await renderOrder(voucher, 'pt-BR');
    expect(await screen.findByText(/^Aguardando seu pagamento: pague como/)).toHaveTextContent(
      /até \d{1,2} de nov\. de 2026/,
    );
    expect(text()).not.toContain('Waiting for');
  });
});

/** The server's policy of record (crates/app/src/refund_policy.rs), read as Rust writes it. */
function serverPolicy() {
  const source = readFileSync('../crates/app/src/refund_policy.rs', 'utf8');
  const strings = (from: string) =>
    [...from.matchAll(/"((?:[^"\\]|\\[\s\S])*)"/g)].map(([, raw]) =>
      (raw ?? '').replace(/\\\n\s*/g, '').replace(/\\"/g, '"'),
    );
  const version = /VERSION: &str = "([^"]+)"/.exec(source)?.[1];
  const intro = strings(
    source.slice(
      source.indexOf('pub const INTRO'),
      source.indexOf(';', source.indexOf('pub const INTRO')),
    ),
  )[0];
  const sectionsSource = source.slice(source.indexOf('pub const SECTIONS'), source.indexOf('];'));
  return { version, intro, sections: strings(sectionsSource) };
}

describe('the refund policy’s translations', () => {
  it('translate the version the server serves, word for word its English', () => {
    const server = serverPolicy();
    const ours = englishInfo.refund.translated;
    expect(server.version).toBe(TRANSLATED_REFUND_POLICY);
    expect(ours.intro).toBe(server.intro);
    expect([
      ours.completedTitle,
      ours.completed,
      ours.whenTitle,
      ours.when,
      ours.detailsTitle,
      ours.details,
      ours.dupeTitle,
      ours.dupe,
      ours.askTitle,
      ours.ask,
      ours.moneyTitle,
      ours.money,
    ]).toEqual(server.sections);
  });

  async function renderPolicy(version: string, language: string) {
    await i18next.changeLanguage(language);
    const server = serverPolicy();
    const sections: { heading?: string; text?: string }[] = [];
    for (let index = 0; index < server.sections.length; index += 2) {
      sections.push({ heading: server.sections[index], text: server.sections[index + 1] });
    }
    const api = stubApi({
      'GET /site': () => jsonResponse(site()),
      'GET /refund-policy': () => jsonResponse({ version, intro: server.intro, sections }),
    });
    renderWithProviders(<RefundPolicyRoute />);
    await vi.waitFor(() => expect(api.callsTo('GET /refund-policy')).toHaveLength(1));
    return screen.findByTestId('refund-policy-version');
  }

  it('shows the French text of the version it translates, the English one of record', async () => {
    const meta = await renderPolicy(TRANSLATED_REFUND_POLICY, 'fr');
    expect(meta).toHaveTextContent('En vigueur depuis le 1 novembre 2026 (version 2026-11-01).');
    expect(meta).toHaveTextContent('le texte anglais fait foi');
    expect(screen.getByRole('heading', { name: 'Achats terminés' })).toBeVisible();
    expect(text()).not.toContain('We do not offer refunds');
  });

  it('shows the English of a version it does not translate, and says so', async () => {
    const meta = await renderPolicy('2027-01-01', 'de');
    expect(meta).toHaveTextContent('nur auf Englisch');
    expect(screen.getByRole('heading', { name: 'Completed purchases' })).toBeVisible();
  });
});
