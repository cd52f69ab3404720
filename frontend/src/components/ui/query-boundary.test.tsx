import type { QueryClient } from '@tanstack/react-query';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { Button } from '@/components/ui/button';
import { QueryBoundary } from '@/components/ui/query-boundary';
import { createTestQueryClient } from '@/testing/test-utils';

type Fetch = () => Promise<string[]>;

type PlantsProps = {
  fetchPlants: Fetch;
  headingLevel?: 1 | 2 | 3;
  errorIcon?: ReactNode;
  errorAction?: ReactNode;
  keepDataOnError?: boolean;
};

function Plants({ fetchPlants, ...props }: PlantsProps) {
  const plants = useQuery({ queryKey: ['plants'], queryFn: fetchPlants });
  return (
    <QueryBoundary
      query={plants}
      loading={<p aria-busy="true">Loading the plants</p>}
      errorTitle="We couldn't load the plants"
      {...props}
    >
      {(data) => (
        <ul aria-label="Plants">
          {data.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryBoundary>
  );
}

function renderPlants(props: PlantsProps, client: QueryClient = createTestQueryClient()) {
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={client}>
      <Plants {...props} />
    </QueryClientProvider>,
  );
  return { user };
}

/** A client that already holds the plants, whose next fetch fails. */
async function renderAfterFailedRefetch(keepDataOnError: boolean) {
  const client = createTestQueryClient();
  client.setQueryData(['plants'], ['Carrot']);
  renderPlants(
    { fetchPlants: () => Promise.reject(new Error('Offline.')), keepDataOnError },
    client,
  );
  await client.refetchQueries({ queryKey: ['plants'] });
}

describe('QueryBoundary', () => {
  it('shows the loading placeholder until the data comes, then the data', async () => {
    let answer: (plants: string[]) => void = () => {};
    renderPlants({
      fetchPlants: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    });
    expect(screen.getByText('Loading the plants')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Plants' })).not.toBeInTheDocument();

    answer(['Carrot', 'Tomato']);

    expect(await screen.findByRole('list', { name: 'Plants' })).toHaveTextContent('CarrotTomato');
    expect(screen.queryByText('Loading the plants')).not.toBeInTheDocument();
  });

  it('says what failed as an alert with the error and a Retry that asks again', async () => {
    const fetchPlants = vi
      .fn<Fetch>()
      .mockRejectedValueOnce(new Error('The garden is closed.'))
      .mockResolvedValueOnce(['Carrot']);
    const { user } = renderPlants({ fetchPlants });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveClass('state-message', 'state-message--danger');
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(
      "We couldn't load the plants",
    );
    expect(alert).toHaveTextContent('The garden is closed.');
    expect(alert.querySelector('.state-message__icon svg')).not.toBeNull();

    await user.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('list', { name: 'Plants' })).toHaveTextContent('Carrot');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchPlants).toHaveBeenCalledTimes(2);
  });

  it('takes the heading level, no icon and another next step in place of Retry', async () => {
    const clear = vi.fn();
    const { user } = renderPlants({
      fetchPlants: () => Promise.reject(new Error('Bad filter.')),
      headingLevel: 3,
      errorIcon: null,
      errorAction: <Button onClick={clear}>Clear filters</Button>,
    });

    const alert = await screen.findByRole('alert');
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent(
      "We couldn't load the plants",
    );
    expect(alert.querySelector('.state-message__icon')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(clear).toHaveBeenCalledOnce();
  });

  it('keeps the data through a failed refetch when asked to', async () => {
    await renderAfterFailedRefetch(true);

    expect(screen.getByRole('list', { name: 'Plants' })).toHaveTextContent('Carrot');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a failed refetch as an error by default, though it has data', async () => {
    await renderAfterFailedRefetch(false);

    expect(await screen.findByRole('alert')).toHaveTextContent('Offline.');
    expect(screen.queryByRole('list', { name: 'Plants' })).not.toBeInTheDocument();
  });
});
