// Hash routes. Hash routing keeps the engine free of UI fallback routes and works unchanged under app://arena/.
import type { SessionStatus } from '../../engine/contract/specarena.js';

export type Route =
  | { name: 'sessions'; status?: SessionStatus | undefined; type?: string | undefined; create?: string | undefined }
  | { name: 'session'; id: string }
  | { name: 'leaderboards'; type?: string | undefined }
  | { name: 'challenges' }
  | { name: 'tournaments' }
  | { name: 'tournament-new'; from?: string | undefined }
  | { name: 'tournament-compare'; a?: string | undefined; b?: string | undefined }
  | { name: 'tournament'; id: string }
  | { name: 'tournament-game'; id: string; index: number }
  | { name: 'agents' }
  | { name: 'reports'; tab: ReportsTab; tournament?: string | undefined }
  | { name: 'governance-match'; id: string }
  | { name: 'settings' }
  | { name: 'not-found'; path: string };

export type ReportsTab = 'governance' | 'tournaments';

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

  if (first === undefined) return { name: 'tournaments' };
  if (first === 'tournaments') {
    if (second === undefined) return { name: 'tournaments' };
    if (second === 'new' && more.length === 0) return { name: 'tournament-new', from: query.get('from') || undefined };
    if (second === 'compare' && more.length === 0)
      return { name: 'tournament-compare', a: query.get('a') || undefined, b: query.get('b') || undefined };
    const id = decode(second);
    if (id && more.length === 0) return { name: 'tournament', id };
    const [third, fourth, ...rest] = more;
    const index = fourth === undefined ? Number.NaN : Number(fourth);
    if (id && third === 'games' && rest.length === 0 && Number.isInteger(index) && index >= 0)
      return { name: 'tournament-game', id, index };
  }
  if (first === 'agents' && second === undefined) return { name: 'agents' };
  if (first === 'settings' && second === undefined) return { name: 'settings' };
  if (first === 'reports') {
    if (second === undefined || (second === 'tournaments' && more.length === 0))
      return {
        name: 'reports',
        tab: second === 'tournaments' ? 'tournaments' : 'governance',
        tournament: query.get('tournament') || undefined,
      };
    if (second === 'governance' && more.length === 0) return { name: 'reports', tab: 'governance' };
    if (second === 'governance' && more.length === 1) {
      const id = decode(more[0] as string);
      if (id) return { name: 'governance-match', id };
    }
  }
  if (first === 'sessions' && second === undefined) {
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
    case 'tournaments':
      return '#/tournaments';
    case 'tournament-new':
      return route.from ? `#/tournaments/new?from=${encodeURIComponent(route.from)}` : '#/tournaments/new';
    case 'tournament-compare': {
      const query = new URLSearchParams();
      if (route.a) query.set('a', route.a);
      if (route.b) query.set('b', route.b);
      const search = query.toString();
      return `#/tournaments/compare${search ? `?${search}` : ''}`;
    }
    case 'tournament':
      return `#/tournaments/${encodeURIComponent(route.id)}`;
    case 'tournament-game':
      return `#/tournaments/${encodeURIComponent(route.id)}/games/${route.index}`;
    case 'agents':
      return '#/agents';
    case 'reports':
      return route.tab === 'tournaments'
        ? `#/reports/tournaments${route.tournament ? `?tournament=${encodeURIComponent(route.tournament)}` : ''}`
        : '#/reports/governance';
    case 'governance-match':
      return `#/reports/governance/${encodeURIComponent(route.id)}`;
    case 'settings':
      return '#/settings';
    case 'not-found':
      return `#${route.path}`;
  }
}
