import { describe, expect, it } from 'vitest';
import { parseRoute, type Route, routeHref } from '../../renderer/src/routes.js';

describe('hash routes', () => {
  it('defaults to the sessions list', () => {
    expect(parseRoute('')).toEqual({ name: 'sessions', status: undefined, type: undefined, create: undefined });
    expect(parseRoute('#/')).toMatchObject({ name: 'sessions' });
  });

  it('reads the sessions filters and ignores unknown statuses', () => {
    expect(parseRoute('#/sessions?status=ended&type=psi')).toEqual({ name: 'sessions', status: 'ended', type: 'psi', create: undefined });
    expect(parseRoute('#/sessions?status=bogus')).toMatchObject({ status: undefined });
    expect(parseRoute('#/sessions?create=psi')).toMatchObject({ create: 'psi' });
  });

  it('parses detail, leaderboard and challenge routes', () => {
    expect(parseRoute('#/sessions/abc-123')).toEqual({ name: 'session', id: 'abc-123' });
    expect(parseRoute('#/leaderboards')).toEqual({ name: 'leaderboards' });
    expect(parseRoute('#/leaderboards/dining-cryptographers')).toEqual({ name: 'leaderboards', type: 'dining-cryptographers' });
    expect(parseRoute('#/challenges')).toEqual({ name: 'challenges' });
    expect(parseRoute('#/nope/x')).toEqual({ name: 'not-found', path: '/nope/x' });
    expect(parseRoute('#/sessions/%E0%A4%A')).toMatchObject({ name: 'not-found' });
  });

  it('round-trips through routeHref', () => {
    const routes: Route[] = [
      { name: 'sessions', status: 'active', type: 'psi', create: undefined },
      { name: 'session', id: 'a b/c' },
      { name: 'leaderboards', type: 'psi' },
      { name: 'leaderboards' },
      { name: 'challenges' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});
