// What a loading list shows before its rows: the load's error with a retry, or a spinner until the first answer.
// Rendering the rows (or an empty message) once data is there stays with the caller.
import { ErrorNotice } from './error-notice.js';
import { Loading } from './loading.js';
import type { Resource } from './use-resource.js';

export function ResourceStatus({ resource, loading }: { resource: Resource<unknown>; loading: string }) {
  if (resource.error) return <ErrorNotice error={resource.error} compact onRetry={resource.reload} />;
  return resource.data === undefined ? <Loading label={loading} /> : null;
}
