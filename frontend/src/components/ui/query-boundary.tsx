import type { ReactNode } from 'react';

import { errorMessage } from '@/lib/api-client';

import { Button } from './button';
import { AlertIcon } from './icons';
import { StateMessage } from './state-message';

/** What the boundary reads of a query (`useQuery` or `useInfiniteQuery` alike). */
export type BoundaryQuery<TData> = {
  data: TData | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
};

type QueryBoundaryProps<TData> = {
  query: BoundaryQuery<TData>;
  /** Shown while the first answer is on its way (a skeleton of what comes). */
  loading: ReactNode;
  /** "We couldn't load the …" */
  errorTitle: string;
  /** The error title's heading level, to fit the page's outline. */
  headingLevel?: 1 | 2 | 3;
  /** The error's icon; `null` for none. */
  errorIcon?: ReactNode;
  /** The error's next step in place of Retry (e.g. Clear filters). */
  errorAction?: ReactNode;
  /** A failed refetch keeps showing the data it already has (a polled list). */
  keepDataOnError?: boolean;
  children: (data: TData) => ReactNode;
};

/** A query's three faces: its loading placeholder, its error with Retry, and its data. */
export function QueryBoundary<TData>({
  query,
  loading,
  errorTitle,
  headingLevel,
  errorIcon = <AlertIcon size={28} />,
  errorAction,
  keepDataOnError = false,
  children,
}: QueryBoundaryProps<TData>) {
  if (query.isPending) return loading;
  if (query.isError && (!keepDataOnError || query.data === undefined)) {
    return (
      <StateMessage
        tone="danger"
        role="alert"
        headingLevel={headingLevel}
        icon={errorIcon}
        title={errorTitle}
        description={errorMessage(query.error)}
        action={
          errorAction ?? (
            <Button onClick={() => void query.refetch()} loading={query.isFetching}>
              Retry
            </Button>
          )
        }
      />
    );
  }
  return query.data === undefined ? null : children(query.data);
}
