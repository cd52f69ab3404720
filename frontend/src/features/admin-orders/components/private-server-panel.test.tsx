import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { stubApi } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

import { PrivateServerPanel } from './private-server-panel';

const LINK = 'https://www.roblox.com/share?code=abc123&type=Server';
const NEW_LINK = 'https://www.roblox.com/share?code=new456&type=Server';

function renderPanel() {
  return renderWithProviders(<PrivateServerPanel prompt={null} />);
}

function panel() {
  return screen.getByRole('region', { name: 'Your private server link' });
}

describe('Your private server link', () => {
  it('shows the saved link and keeps the form folded until asked', async () => {
    stubApi({ 'GET /admin/private-server': () => jsonResponse({ url: LINK }) });
    const { user } = renderPanel();
    expect(await within(panel()).findByRole('link', { name: LINK })).toHaveAttribute('href', LINK);
    expect(within(panel()).queryByRole('textbox')).not.toBeInTheDocument();
    const toggle = within(panel()).getByRole('button', { name: 'Change link' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(panel()).getByRole('textbox', { name: 'Private server link' })).toHaveValue(LINK);
    expect(within(panel()).getByRole('button', { name: 'Hide' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('opens the form by itself while no link is set, saying claiming needs one', async () => {
    stubApi({ 'GET /admin/private-server': () => jsonResponse({ url: null }) });
    renderPanel();
    expect(
      await within(panel()).findByText('Not set. You need it to claim an order.'),
    ).toBeInTheDocument();
    expect(within(panel()).getByRole('textbox', { name: 'Private server link' })).toHaveValue('');
    expect(within(panel()).queryByRole('button', { name: 'Remove link' })).not.toBeInTheDocument();
  });

  it('saves a link, then shows it with the form folded', async () => {
    const api = stubApi({
      'GET /admin/private-server': () => jsonResponse({ url: null }),
      'PUT /admin/private-server': ({ body }) => jsonResponse(body),
    });
    const { user } = renderPanel();
    const input = await within(panel()).findByRole('textbox', { name: 'Private server link' });
    await user.type(input, `  ${NEW_LINK} `);
    await user.click(within(panel()).getByRole('button', { name: 'Save link' }));
    expect(await screen.findByText('Your private server link is saved.')).toBeInTheDocument();
    expect(api.callsTo('PUT /admin/private-server').map((call) => call.body)).toEqual([
      { url: NEW_LINK },
    ]);
    expect(within(panel()).getByRole('link', { name: NEW_LINK })).toBeInTheDocument();
    expect(within(panel()).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('asks for a link before saving an empty one', async () => {
    const api = stubApi({ 'GET /admin/private-server': () => jsonResponse({ url: null }) });
    const { user } = renderPanel();
    const input = await within(panel()).findByRole('textbox', { name: 'Private server link' });
    await user.click(within(panel()).getByRole('button', { name: 'Save link' }));
    expect(input).toHaveAccessibleDescription(/Enter your private server link\./);
    expect(api.callsTo('PUT /admin/private-server')).toEqual([]);
  });

  it("shows the server's refusal of a link under the field", async () => {
    stubApi({
      'GET /admin/private-server': () => jsonResponse({ url: LINK }),
      'PUT /admin/private-server': () =>
        jsonResponse(
          {
            message: 'The link is not valid.',
            errors: { url: ['Use an https link on roblox.com.'] },
          },
          422,
        ),
    });
    const { user } = renderPanel();
    await user.click(await within(panel()).findByRole('button', { name: 'Change link' }));
    const input = within(panel()).getByRole('textbox', { name: 'Private server link' });
    await user.clear(input);
    await user.type(input, 'http://example.com/server');
    await user.click(within(panel()).getByRole('button', { name: 'Save link' }));
    await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
    expect(input).toHaveAccessibleDescription(/Use an https link on roblox\.com\./);
    expect(within(panel()).getByText('Use an https link on roblox.com.')).toHaveClass(
      'form-field__error',
    );
    // Still the saved link until a good one is saved; the field keeps what was typed.
    expect(within(panel()).getByRole('link', { name: LINK })).toBeInTheDocument();
    expect(input).toHaveValue('http://example.com/server');
    // Typing again clears the error.
    await user.type(input, '/');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('removes the link', async () => {
    const api = stubApi({
      'GET /admin/private-server': () => jsonResponse({ url: LINK }),
      'DELETE /admin/private-server': () => new Response(null, { status: 204 }),
    });
    const { user } = renderPanel();
    await user.click(await within(panel()).findByRole('button', { name: 'Change link' }));
    await user.click(within(panel()).getByRole('button', { name: 'Remove link' }));
    expect(await screen.findByText('Your private server link is removed.')).toBeInTheDocument();
    expect(api.callsTo('DELETE /admin/private-server')).toHaveLength(1);
    expect(
      within(panel()).getByText('Not set. You need it to claim an order.'),
    ).toBeInTheDocument();
    expect(within(panel()).queryByRole('link', { name: LINK })).not.toBeInTheDocument();
    expect(within(panel()).getByRole('textbox', { name: 'Private server link' })).toHaveValue('');
  });
});
