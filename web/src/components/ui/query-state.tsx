import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../../api/client.ts';
import { Button } from './button.tsx';
import { Loading } from './loading.tsx';

interface QueryStateProps<T> {
  query: Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'refetch' | 'isRefetching'>;
  /** What to say while loading (default the spec's 'Loading...'). */
  loadingLabel?: string;
  /** Shown instead of the spinner while loading: the outline of what is coming (it says loadingLabel itself). */
  loading?: ReactNode;
  /** Shown on failure above the Retry button when the server gives no detail. */
  errorFallback?: string;
  isEmpty?: (data: T) => boolean;
  /** The empty state: what this list is and how to fill it. */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/** The three states every fetched view has besides its content: loading, failed (with a way to retry) and empty. */
export function QueryState<T>({
  query,
  loadingLabel,
  loading,
  errorFallback = 'Could not load this. Check your connection and try again.',
  isEmpty,
  empty,
  children,
}: QueryStateProps<T>) {
  if (query.isPending && loading) return <>{loading}</>;
  if (query.isPending) return <Loading {...(loadingLabel ? { label: loadingLabel } : {})} />;
  if (query.isError) {
    const detail = query.error instanceof ApiError ? query.error.message : errorFallback;
    return (
      <div className="query-error" role="alert">
        <p>{detail}</p>
        <Button variant="secondary" busy={query.isRefetching} onClick={() => void query.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const data = query.data as T;
  if (isEmpty?.(data)) return <div className="empty">{empty}</div>;
  return <>{children(data)}</>;
}
