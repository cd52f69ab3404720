import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { ProofsRoute } from '@/app/routes/proofs';
import { makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import { proofGridColumns, proofImages } from '@/features/proofs/utils/normalize-proof';
import { stubApi } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

type ApiProof = { id: number; items: string; images: string[] | string; created_at: string };

const PROOFS: ApiProof[] = [
  { id: 3, items: 'Raccoon', images: ['/media/proofs/a.png'], created_at: '2026-11-20T10:00:00Z' },
  {
    id: 2,
    items: 'T-Rex and Dragonfly',
    // JSON-encoded, as older answers send it.
    images: JSON.stringify(['/media/proofs/b.png', '/media/proofs/c.png']),
    created_at: '2026-11-19T10:00:00Z',
  },
  {
    id: 1,
    items: '10M Sheckles',
    images: [
      '/media/proofs/d.png',
      '/media/proofs/e.png',
      '/media/proofs/f.png',
      '/media/proofs/g.png',
    ],
    created_at: '2026-11-18T10:00:00Z',
  },
];

function renderProofs(accountType: 'customer' | 'admin' | 'super_admin' | null) {
  const queryClient = queryClientWithSession(
    accountType ? makeUser({ account_type: accountType }) : null,
  );
  return renderWithProviders(<ProofsRoute />, { url: '/proofs', path: '/proofs', queryClient });
}

const cards = () =>
  within(screen.getByRole('list', { name: 'Proofs of delivery' })).getAllByRole('article');

beforeEach(() => {
  URL.createObjectURL = vi.fn((file: Blob) => `blob:${(file as File).name}`);
  URL.revokeObjectURL = vi.fn();
});

describe('/proofs', () => {
  it('shows each proof as a Completed Order with its images in 1, 2 or 3 columns', async () => {
    stubApi({ 'GET /proofs': () => jsonResponse(PROOFS) });
    renderProofs(null);
    expect(screen.getByLabelText('Loading proofs')).toBeInTheDocument();

    await screen.findByText('Enjoy your Raccoon');
    const shown = cards();
    expect(shown).toHaveLength(3);
    const expected: Array<[string, number, string]> = [
      ['Enjoy your Raccoon', 1, '1'],
      ['Enjoy your T-Rex and Dragonfly', 2, '2'],
      ['Enjoy your 10M Sheckles', 4, '3'],
    ];
    expected.forEach(([text, images, columns], index) => {
      const card = shown[index];
      if (!card) throw new Error('missing card');
      expect(within(card).getByRole('heading', { name: 'Completed Order' })).toBeInTheDocument();
      expect(within(card).getByText(text)).toBeInTheDocument();
      expect(within(card).getByText('Proof of Delivery')).toBeInTheDocument();
      const grid = within(card).getByRole('list', { name: 'Proof images' });
      expect(within(grid).getAllByRole('img')).toHaveLength(images);
      expect(grid).toHaveAttribute('data-columns', columns);
      expect(grid).toHaveClass(`proof-card__images--cols-${columns}`);
    });
    const jsonImages = within(shown[1] as HTMLElement).getAllByRole('img');
    expect(jsonImages[0]).toHaveAttribute('src', '/media/proofs/b.png');
    // Shoppers see no staff controls.
    expect(screen.queryByRole('button', { name: 'Add New Proof' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });

  it('has an empty state', async () => {
    stubApi({ 'GET /proofs': () => jsonResponse([]) });
    renderProofs('customer');
    expect(await screen.findByRole('heading', { name: 'No proofs yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse products' })).toHaveAttribute('href', '/');
  });

  it('staff toggle the form with Add New Proof / Cancel and need items and an image', async () => {
    const api = stubApi({ 'GET /proofs': () => jsonResponse(PROOFS) });
    const { user } = renderProofs('admin');
    await screen.findByText('Enjoy your Raccoon');

    const toggle = screen.getByRole('button', { name: 'Add New Proof' });
    await user.click(toggle);
    const form = screen.getByRole('form', { name: 'Add New Proof' });
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(form).getByLabelText('Items')).toHaveFocus();
    expect(within(form).getByLabelText('Images')).toHaveAttribute('accept', 'image/*');
    expect(within(form).getByLabelText('Images')).toHaveAttribute('multiple');

    // Nothing, then items without images: the same message, nothing sent.
    await user.click(within(form).getByRole('button', { name: 'Add Proof' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(
      'Please provide items and at least one image.',
    );
    await user.type(within(form).getByLabelText('Items'), 'Raccoon');
    await user.click(within(form).getByRole('button', { name: 'Add Proof' }));
    expect(within(form).getByRole('alert')).toHaveTextContent(
      'Please provide items and at least one image.',
    );
    expect(api.callsTo('POST /proofs')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Add New Proof' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add New Proof' })).toBeInTheDocument();
  });

  it('adds a proof with several images: the form clears, closes and the proof is on top', async () => {
    const api = stubApi({
      'GET /proofs': () => jsonResponse(PROOFS),
      'POST /proofs': () =>
        jsonResponse(
          {
            id: 9,
            items: 'Golden Bee',
            images: ['/media/proofs/x.png', '/media/proofs/y.png'],
            created_at: '2026-11-21T10:00:00Z',
          },
          201,
        ),
    });
    const { user } = renderProofs('super_admin');
    await screen.findByText('Enjoy your Raccoon');
    await user.click(screen.getByRole('button', { name: 'Add New Proof' }));
    const form = screen.getByRole('form', { name: 'Add New Proof' });
    await user.type(within(form).getByLabelText('Items'), '  Golden Bee ');
    const files = [
      new File(['a'], 'one.png', { type: 'image/png' }),
      new File(['b'], 'two.png', { type: 'image/png' }),
    ];
    await user.upload(within(form).getByLabelText('Images'), files);
    expect(within(form).getAllByRole('img')).toHaveLength(2);
    await user.click(within(form).getByRole('button', { name: 'Add Proof' }));

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add New Proof' })).toBeNull());
    const [post] = api.callsTo('POST /proofs');
    const sent = post?.body as FormData;
    expect(sent.get('items')).toBe('Golden Bee');
    expect(sent.getAll('images[]').map((file) => (file as File).name)).toEqual([
      'one.png',
      'two.png',
    ]);
    const first = cards()[0] as HTMLElement;
    expect(within(first).getByText('Enjoy your Golden Bee')).toBeInTheDocument();
    expect(within(first).getByRole('list', { name: 'Proof images' })).toHaveAttribute(
      'data-columns',
      '2',
    );
    expect(cards()).toHaveLength(4);

    // Opening the form again starts empty.
    await user.click(screen.getByRole('button', { name: 'Add New Proof' }));
    expect(
      within(screen.getByRole('form', { name: 'Add New Proof' })).getByLabelText('Items'),
    ).toHaveValue('');
  });

  it('says "Failed to submit proof." and shows the server\'s field messages', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    stubApi({
      'GET /proofs': () => jsonResponse(PROOFS),
      'POST /proofs': () =>
        jsonResponse(
          {
            message: 'Invalid data.',
            errors: { images: ['Each image must be a PNG, JPEG, WebP or GIF.'] },
          },
          422,
        ),
    });
    const { user } = renderProofs('admin');
    await screen.findByText('Enjoy your Raccoon');
    await user.click(screen.getByRole('button', { name: 'Add New Proof' }));
    const form = screen.getByRole('form', { name: 'Add New Proof' });
    await user.type(within(form).getByLabelText('Items'), 'Raccoon');
    await user.upload(
      within(form).getByLabelText('Images'),
      new File(['x'], 'notes.png', { type: 'image/png' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Add Proof' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Failed to submit proof.');
    expect(
      within(form).getByText('Each image must be a PNG, JPEG, WebP or GIF.'),
    ).toBeInTheDocument();
    expect(cards()).toHaveLength(3);
  });

  it("deletes a proof only after the confirmation and the server's answer", async () => {
    let answer = () => jsonResponse({ message: 'Proof deleted.' });
    const api = stubApi({
      'GET /proofs': () => jsonResponse(PROOFS),
      'DELETE /proofs/3': () => answer(),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderProofs('admin');
    await screen.findByText('Enjoy your Raccoon');

    await user.click(screen.getByRole('button', { name: 'Delete proof: Raccoon' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent('Are you sure you want to delete this proof?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DELETE /proofs/3')).toHaveLength(0);
    expect(screen.getByText('Enjoy your Raccoon')).toBeInTheDocument();

    // A refusal keeps the card.
    answer = () => jsonResponse({ message: 'no' }, 500);
    await user.click(screen.getByRole('button', { name: 'Delete proof: Raccoon' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('Failed to delete proof.')).toBeInTheDocument();
    expect(screen.getByText('Enjoy your Raccoon')).toBeInTheDocument();

    answer = () => jsonResponse({ message: 'Proof deleted.' });
    await user.click(screen.getByRole('button', { name: 'Delete proof: Raccoon' }));
    await user.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByText('Enjoy your Raccoon')).toBeNull());
    expect(cards()).toHaveLength(2);
  });
});

describe('proof helpers', () => {
  it('reads images as a list or a JSON-encoded list', () => {
    expect(proofImages(['/a.png'])).toEqual(['/a.png']);
    expect(proofImages('["/a.png","/b.png"]')).toEqual(['/a.png', '/b.png']);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(proofImages('not json')).toEqual([]);
    expect(proofImages(null)).toEqual([]);
  });

  it('uses 1, 2 or 3 columns', () => {
    expect([1, 2, 3, 7].map(proofGridColumns)).toEqual([1, 2, 3, 3]);
  });
});
