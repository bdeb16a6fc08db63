// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublicReview } from '../../../../../contract/reviews.ts';
import { renderApp, resetApp, type SentRequest } from '../../../testing/render-app.tsx';

afterEach(resetApp);

const review = (n: number, extra: Partial<PublicReview> = {}): PublicReview => ({
  id: `r${n}`,
  name: `Reviewer ${n}`,
  country: 'Ghana',
  rating: 5,
  text: `Review number ${n}`,
  created_at: '2026-11-01T10:00:00.000Z',
  edited_by_admin: false,
  verified_deal: false,
  status: 'approved',
  ...extra,
});

/** A store of `total` published reviews, served 20 at a time like the API does. */
function reviewsServer(total: number) {
  return ({ method, path }: SentRequest) => {
    if (method !== 'GET') return undefined;
    if (path === '/api/reviews/countries') return { status: 200, body: ['Ghana', 'Poland'] };
    if (path === '/api/reviews/stats')
      return { status: 200, body: { average_rating: 4.5, total, distribution: { '5.0': total } } };
    if (!path.startsWith('/api/reviews?')) return undefined;
    const query = new URLSearchParams(path.split('?')[1]);
    const skip = Number(query.get('skip'));
    const matching = query.get('country') === 'Poland' ? 0 : total;
    const page = Array.from({ length: Math.max(0, Math.min(20, matching - skip)) }, (_, i) => review(skip + i + 1));
    return { status: 200, body: page };
  };
}

const listQueries = (app: ReturnType<typeof renderApp>) =>
  app.calls('GET', '/api/reviews?').map((r) => Object.fromEntries(new URLSearchParams(r.path.split('?')[1])));

describe('Reviews', () => {
  it('pages by 20: Next only on a full page, Previous only after the first', async () => {
    const app = renderApp('/reviews', reviewsServer(45));
    expect(await screen.findByText('Review number 1')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Previous' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Review number 21')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Review number 45')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(screen.getAllByText(/^Review number/)).toHaveLength(5);
    expect(listQueries(app).map((q) => q.skip)).toEqual(['0', '20', '40']);
    expect(app.router.state.location.search).toBe('?skip=40');
  });

  it('sends the chosen filters, starts again at the first page and says when nothing matches', async () => {
    const app = renderApp('/reviews?skip=20', reviewsServer(45));
    expect(await screen.findByText('Review number 21')).toBeTruthy();
    const filters = screen.getByRole('form', { name: 'Filter reviews' });
    await screen.findByRole('option', { name: 'Poland' });

    await userEvent.selectOptions(within(filters).getByLabelText('Minimum rating'), '4.5');
    await userEvent.selectOptions(within(filters).getByLabelText('Sort by'), 'highest');
    await waitFor(() =>
      expect(listQueries(app).at(-1)).toEqual({ skip: '0', limit: '20', sort: 'highest', min_rating: '4.5' }),
    );

    await userEvent.selectOptions(within(filters).getByLabelText('Country'), 'Poland');
    expect(await screen.findByText('No reviews found matching your filters.')).toBeTruthy();
    expect(listQueries(app).at(-1)).toEqual({
      skip: '0',
      limit: '20',
      sort: 'highest',
      min_rating: '4.5',
      country: 'Poland',
    });
    expect(screen.queryByRole('button', { name: 'Next' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Previous' })).toBeNull();
  });

  it('says why the list failed and loads it again on Retry', async () => {
    let failures = 1;
    const serve = reviewsServer(3);
    renderApp('/reviews', (request) => {
      if (request.path.startsWith('/api/reviews?') && failures-- > 0)
        return { status: 503, body: { status: 503, detail: 'The database is not answering' } };
      return serve(request);
    });
    expect(await screen.findByText('The database is not answering')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Review number 3')).toBeTruthy();
    expect(screen.queryByText('The database is not answering')).toBeNull();
  });

  it('marks edited reviews and verified deals', async () => {
    renderApp('/reviews', ({ path }) =>
      path.startsWith('/api/reviews?')
        ? { status: 200, body: [review(1, { edited_by_admin: true, verified_deal: true }), review(2)] }
        : undefined,
    );
    const first = (await screen.findByText('Review number 1')).closest('li')!;
    expect(within(first).getByText('Edited by admin for clarity')).toBeTruthy();
    expect(within(first).getByTitle('Left after a completed escrow')).toBeTruthy();
    const second = screen.getByText('Review number 2').closest('li')!;
    expect(within(second).queryByText('Edited by admin for clarity')).toBeNull();
  });

  it('Write a Review: requires the terms, counts characters, defaults to 5.0 and submits', async () => {
    const app = renderApp('/reviews', ({ method, path }) =>
      method === 'POST' && path === '/api/reviews'
        ? {
            status: 201,
            body: {
              detail: 'Thank you! Your review will appear once a moderator has read it, usually within 24-48 hours.',
            },
          }
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Write a Review' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/24-48 hours/)).toBeTruthy();
    const rating = within(dialog).getByLabelText(/Rating/) as HTMLSelectElement;
    expect(rating.value).toBe('5');
    expect([...rating.options].map((o) => o.value)).toEqual(['5', '4.5', '4', '3.5', '3']);

    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Ana');
    await userEvent.type(within(dialog).getByLabelText(/Country/), 'Brazil');
    await userEvent.type(within(dialog).getByLabelText(/Your review/), 'Quick and fair.');
    expect(within(dialog).getByText('15/1000 characters')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit review' }));
    expect(await within(dialog).findByText('You must accept the terms to submit a review')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);

    await userEvent.click(within(dialog).getByRole('checkbox'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit review' }));
    expect(await screen.findByText(/Your review will appear once a moderator has read it/)).toBeTruthy();
    expect(app.calls('POST', '/api/reviews')[0]?.body).toMatchObject({
      name: 'Ana',
      country: 'Brazil',
      rating: 5,
      text: 'Quick and fair.',
      terms_accepted: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 });
  });

  it('Write a Review: an e-mail address too long for a mailbox is refused in the form, nothing sent', async () => {
    const app = renderApp('/reviews', () => undefined);
    await userEvent.click(await screen.findByRole('button', { name: 'Write a Review' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Name/), 'Ana');
    await userEvent.type(within(dialog).getByLabelText(/Country/), 'Brazil');
    await userEvent.type(within(dialog).getByLabelText(/Your review/), 'Quick and fair.');
    await userEvent.click(within(dialog).getByRole('checkbox'));
    await userEvent.type(within(dialog).getByLabelText(/Email/), `${'a'.repeat(250)}@example.com`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit review' }));
    expect(await within(dialog).findByText('Email must be at most 254 characters')).toBeTruthy();
    expect(app.calls('POST')).toHaveLength(0);
  });
});
