import { describe, expect, it } from 'vitest';
import { parseRoute, type Route, routeHref } from '../../renderer/src/routes.js';

describe('hash routes', () => {
  it('defaults to the tournaments list', () => {
    expect(parseRoute('')).toEqual({ name: 'tournaments' });
    expect(parseRoute('#/')).toEqual({ name: 'tournaments' });
    expect(parseRoute('#/sessions')).toMatchObject({ name: 'sessions' });
  });

  it('parses tournament, agent, report and settings routes', () => {
    expect(parseRoute('#/tournaments/new?from=t1')).toEqual({ name: 'tournament-new', from: 't1' });
    expect(parseRoute('#/tournaments/compare?a=t1&b=t2')).toEqual({ name: 'tournament-compare', a: 't1', b: 't2' });
    expect(parseRoute('#/tournaments/compare')).toEqual({ name: 'tournament-compare', a: undefined, b: undefined });
    expect(parseRoute('#/tournaments/t1')).toEqual({ name: 'tournament', id: 't1' });
    expect(parseRoute('#/tournaments/t1/games/7')).toEqual({ name: 'tournament-game', id: 't1', index: 7 });
    expect(parseRoute('#/tournaments/t1/games/-1')).toMatchObject({ name: 'not-found' });
    expect(parseRoute('#/tournaments/t1/games/1.5')).toMatchObject({ name: 'not-found' });
    expect(parseRoute('#/reports')).toEqual({ name: 'reports', tab: 'governance', tournament: undefined });
    expect(parseRoute('#/reports/tournaments?tournament=t1')).toEqual({ name: 'reports', tab: 'tournaments', tournament: 't1' });
    expect(parseRoute('#/reports/governance/m-1')).toEqual({ name: 'governance-match', id: 'm-1' });
    expect(parseRoute('#/agents')).toEqual({ name: 'agents' });
    expect(parseRoute('#/settings')).toEqual({ name: 'settings' });
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
      { name: 'tournaments' },
      { name: 'tournament-new', from: 'x y' },
      { name: 'tournament-new', from: undefined },
      { name: 'tournament-compare', a: 't 1', b: 't2' },
      { name: 'tournament', id: 'a/b' },
      { name: 'tournament-game', id: 't', index: 12 },
      { name: 'agents' },
      { name: 'reports', tab: 'governance' },
      { name: 'reports', tab: 'tournaments', tournament: 't 1' },
      { name: 'reports', tab: 'tournaments', tournament: undefined },
      { name: 'governance-match', id: 'm/1' },
      { name: 'settings' },
    ];
    for (const route of routes) expect(parseRoute(routeHref(route))).toEqual(route);
  });
});
