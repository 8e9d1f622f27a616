// Hash routes. Hash routing keeps the engine free of UI fallback routes and works unchanged under app://arena/.
// Later features (tournaments, match viewer, audit reports) add their own cases here.
import type { SessionStatus } from '../../engine/contract/specarena.js';

export type Route =
  | { name: 'sessions'; status?: SessionStatus | undefined; type?: string | undefined; create?: string | undefined }
  | { name: 'session'; id: string }
  | { name: 'leaderboards'; type?: string | undefined }
  | { name: 'challenges' }
  | { name: 'not-found'; path: string };

const STATUSES: readonly string[] = ['open', 'active', 'ended'];

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export function parseRoute(hash: string): Route {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const [pathPart = '', queryPart = ''] = raw.split('?', 2);
  const segments = pathPart.split('/').filter((s) => s !== '');
  const query = new URLSearchParams(queryPart);
  const [first, second, ...more] = segments;

  if (first === undefined || (first === 'sessions' && second === undefined)) {
    const status = query.get('status');
    return {
      name: 'sessions',
      status: status !== null && STATUSES.includes(status) ? (status as SessionStatus) : undefined,
      type: query.get('type') || undefined,
      create: query.get('create') || undefined,
    };
  }
  if (first === 'sessions' && second !== undefined && more.length === 0) {
    const id = decode(second);
    if (id) return { name: 'session', id };
  }
  if (first === 'leaderboards' && more.length === 0) {
    if (second === undefined) return { name: 'leaderboards' };
    const type = decode(second);
    if (type) return { name: 'leaderboards', type };
  }
  if (first === 'challenges' && second === undefined) return { name: 'challenges' };
  return { name: 'not-found', path: `/${segments.join('/')}` };
}

export function routeHref(route: Route): string {
  switch (route.name) {
    case 'sessions': {
      const query = new URLSearchParams();
      if (route.status) query.set('status', route.status);
      if (route.type) query.set('type', route.type);
      if (route.create) query.set('create', route.create);
      const search = query.toString();
      return `#/sessions${search ? `?${search}` : ''}`;
    }
    case 'session':
      return `#/sessions/${encodeURIComponent(route.id)}`;
    case 'leaderboards':
      return route.type ? `#/leaderboards/${encodeURIComponent(route.type)}` : '#/leaderboards';
    case 'challenges':
      return '#/challenges';
    case 'not-found':
      return `#${route.path}`;
  }
}
