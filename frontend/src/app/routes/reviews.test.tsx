import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ReviewsRoute } from '@/app/routes/reviews';
import { makeUser, queryClientWithSession } from '@/features/auth/testing/fake-api';
import type { Review, ReviewSummary } from '@/features/reviews/api/reviews';
import { stubApi } from '@/testing/api-stub';
import { jsonResponse, renderWithProviders } from '@/testing/test-utils';

const REVIEWS: Review[] = [
  {
    id: 7,
    rating: 5,
    text: 'Fast and friendly.',
    name: 'Bu***',
    created_at: '2026-11-20T10:00:00Z',
    product_ids: [1],
  },
  {
    id: 4,
    rating: 1,
    text: 'Buy cheap gems at spam.example',
    name: 'Sp***',
    created_at: '2026-11-19T10:00:00Z',
    product_ids: [2],
  },
];

function summary(reviews: Review[]): ReviewSummary {
  const count = reviews.length;
  const average = count ? reviews.reduce((sum, r) => sum + r.rating, 0) / count : null;
  return { average, count, reviews };
}

function renderReviews(accountType: 'customer' | 'admin' | 'super_admin' | null) {
  const queryClient = queryClientWithSession(
    accountType ? makeUser({ account_type: accountType }) : null,
  );
  return renderWithProviders(<ReviewsRoute />, { url: '/reviews', path: '/reviews', queryClient });
}

const reviewItems = () =>
  within(screen.getByRole('list', { name: 'Reviews' })).getAllByRole('listitem');

describe('/reviews: staff hide a review', () => {
  it.each([['admin'], ['super_admin']] as const)(
    '%s sees a Hide button on each review',
    async (role) => {
      stubApi({ 'GET /reviews': () => jsonResponse(summary(REVIEWS)) });
      renderReviews(role);
      await screen.findByText('Fast and friendly.');
      const items = reviewItems();
      expect(items).toHaveLength(2);
      for (const item of items) {
        expect(within(item).getByRole('button', { name: /^Hide/ })).toHaveTextContent('Hide');
      }
      expect(screen.getByRole('button', { name: 'Hide review by Sp***' })).toBeInTheDocument();
    },
  );

  it.each([['customer'], [null]] as const)('a %s shopper sees no Hide button', async (role) => {
    stubApi({ 'GET /reviews': () => jsonResponse(summary(REVIEWS)) });
    renderReviews(role);
    await screen.findByText('Fast and friendly.');
    expect(reviewItems()).toHaveLength(2);
    expect(screen.queryByRole('button', { name: /^Hide/ })).toBeNull();
  });

  it('asks for a reason, sends it, and the review leaves the list', async () => {
    let listed = REVIEWS;
    const api = stubApi({
      'GET /reviews': () => jsonResponse(summary(listed)),
      'POST /admin/reviews/4/hide': () => {
        listed = REVIEWS.filter((review) => review.id !== 4);
        return jsonResponse({ id: 4, hidden: true });
      },
    });
    const { user } = renderReviews('admin');
    await screen.findByText('Buy cheap gems at spam.example');
    expect(screen.getByTestId('reviews-summary')).toHaveTextContent('2 verified reviews');

    await user.click(screen.getByRole('button', { name: 'Hide review by Sp***' }));
    const dialog = screen.getByRole('dialog', { name: 'Hide this review?' });

    // The reason is required: nothing is sent without one.
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/Please say why the review is hidden\./);
    expect(api.callsTo('POST /admin/reviews/4/hide')).toHaveLength(0);

    await user.type(reason, '  Spam link  ');
    expect(reason).not.toHaveAttribute('aria-invalid');
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));

    await waitFor(() => expect(screen.queryByText('Buy cheap gems at spam.example')).toBeNull());
    const posts = api.callsTo('POST /admin/reviews/4/hide');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.body).toEqual({ reason: 'Spam link' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(await screen.findByText('Review hidden.')).toBeInTheDocument();
    expect(reviewItems()).toHaveLength(1);
    expect(screen.getByTestId('reviews-summary')).toHaveTextContent('1 verified review');
    // The list was fetched again after the hide.
    expect(api.callsTo('GET /reviews').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the API's message in the dialog when the hide fails", async () => {
    let answer = () =>
      jsonResponse(
        { message: 'The given data was invalid.', errors: { reason: ['The reason is too long.'] } },
        422,
      );
    const api = stubApi({
      'GET /reviews': () => jsonResponse(summary(REVIEWS)),
      'POST /admin/reviews/7/hide': () => answer(),
    });
    const { user } = renderReviews('super_admin');
    await screen.findByText('Fast and friendly.');

    await user.click(screen.getByRole('button', { name: 'Hide review by Bu***' }));
    const dialog = screen.getByRole('dialog', { name: 'Hide this review?' });
    const reason = within(dialog).getByLabelText('Reason');
    await user.type(reason, 'Off topic');
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));
    // A 422 lands on the field.
    await waitFor(() => expect(reason).toHaveAccessibleDescription(/The reason is too long\./));

    // Another 4xx: its message shows in the dialog, which stays open, and the review stays.
    answer = () => jsonResponse({ message: 'Review not found.', errors: {} }, 404);
    await user.click(within(dialog).getByRole('button', { name: 'Hide review' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Review not found.');
    expect(api.callsTo('POST /admin/reviews/7/hide')).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: 'Hide this review?' })).toBeInTheDocument();
    expect(screen.getByText('Fast and friendly.')).toBeInTheDocument();

    // Cancel closes it and nothing changed.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(reviewItems()).toHaveLength(2);
  });
});

describe('/reviews without a review', () => {
  it('shows the styled empty state with a next step (issue 23)', async () => {
    stubApi({ 'GET /reviews': () => jsonResponse(summary([])) });
    renderReviews(null);
    expect(await screen.findByRole('heading', { level: 2, name: 'No reviews yet' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Browse products' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('list', { name: 'Reviews' })).not.toBeInTheDocument();
  });
});
