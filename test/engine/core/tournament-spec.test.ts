// Tournament definition schema: defaults, cross-field rules and the per-field error lines users see.
import { describe, expect, it } from 'vitest';
import { formatIssuePath } from '../../../engine/contract/schema-issues.js';
import {
  expectedGameCount,
  formatSpecErrors,
  parseTournamentSpec,
  runSeed,
  staticScheduleConfig,
  swissRounds,
  type TournamentSpec,
  TournamentSpecSchema,
} from '../../../engine/core/tournament/index.js';

const base = {
  name: 'psi ladder',
  challenge: 'psi',
  format: 'round-robin',
  seed: 42,
  agents: [{ manifest: 'agents/a.yaml' }, { manifest: 'agents/b.yaml' }],
  limits: { move_seconds: 30, game_seconds: 600 },
};

function errors(input: unknown): string[] {
  const result = parseTournamentSpec(input);
  if (result.ok) throw new Error('expected the spec to be rejected');
  return result.errors;
}

describe('tournament spec', () => {
  it('fills defaults and folds `challenge` into `challenges`', () => {
    const result = parseTournamentSpec(base);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.spec.challenges).toEqual(['psi']);
    expect('challenge' in result.spec).toBe(false);
    expect(result.spec.format).toEqual({ kind: 'round-robin', cycles: 1, max_tables: 200 });
    expect(result.spec.games_per_pairing).toBe(2);
    expect(result.spec.concurrency).toBe(1);
    expect(result.spec.stop).toEqual({ kind: 'fixed' });
    expect(result.spec.options).toEqual({});
  });

  it('accepts the object forms of format and stop, and string seeds', () => {
    const result = parseTournamentSpec({
      ...base,
      challenge: undefined,
      challenges: ['psi', 'millionaire'],
      seed: 'study-7',
      format: { kind: 'knockout', tie_break_pairs: 1 },
      stop: { kind: 'sprt', elo0: 0, elo1: 50 },
      max_illegal_actions: 3,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.spec.format).toEqual({ kind: 'knockout', tie_break_pairs: 1, third_place: false });
    expect(result.spec.stop).toEqual({ kind: 'sprt', elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05, model: 'logistic' });
    expect(result.spec.seed).toBe('study-7');
  });

  it('names the missing field by its path', () => {
    expect(errors({ ...base, agents: [{ manifest: 'a.yaml' }, {}] })).toEqual(['agents[1].manifest: Required']);
    expect(errors({ ...base, limits: { move_seconds: 5 } })).toEqual(['limits.game_seconds: Required']);
    const missing = errors({});
    for (const field of ['name', 'format', 'seed', 'agents', 'limits']) expect(missing).toContain(`${field}: Required`);
  });

  it('rejects unknown fields and bad values with one line each', () => {
    expect(errors({ ...base, colour: 'red', format: { kind: 'swiss', rnds: 3 } })).toEqual([
      'format.rnds: unknown field',
      'colour: unknown field',
    ]);
    expect(errors({ ...base, format: 'ladder' })).toEqual(['format.kind: must be one of round-robin, gauntlet, swiss, knockout, adaptive']);
    expect(errors({ ...base, concurrency: 65 })).toEqual(['concurrency: concurrency must be at most 64']);
    expect(errors({ ...base, games_per_pairing: 0 })).toEqual(['games_per_pairing: games_per_pairing must be at least 1']);
    expect(errors({ ...base, games_per_pairing: 1.5 })).toEqual(['games_per_pairing: games_per_pairing must be a whole number']);
    expect(errors({ ...base, seed: 1.5 })).toEqual(['seed: seed must be a whole number or a string']);
    expect(errors({ ...base, agents: [{ manifest: 'a' }] })).toEqual(['agents: agents must list at least 2 agents']);
  });

  it('checks the cross-field rules', () => {
    // SPRT is a two-agent test.
    expect(errors({ ...base, agents: [...base.agents, { manifest: 'c.yaml' }], stop: { kind: 'sprt', elo0: 0, elo1: 50 } })).toEqual([
      'stop: sprt needs exactly 2 agents, got 3',
    ]);
    expect(errors({ ...base, stop: { kind: 'sprt', elo0: 10, elo1: 10 } })).toEqual(['stop.elo1: elo1 must be greater than elo0']);
    expect(errors({ ...base, stop: { kind: 'sprt', elo0: 0, elo1: 10, alpha: 0.6, beta: 0.5 } })).toEqual([
      'stop.beta: alpha + beta must be below 1',
    ]);
    expect(errors({ ...base, stop: { kind: 'sprt', elo0: 0, elo1: 10, alpha: 1 } })).toEqual([
      'stop.alpha: alpha must be between 0 and 1 (exclusive)',
    ]);
    // Two agents allow at most 1 swiss round (N − 1).
    expect(errors({ ...base, format: { kind: 'swiss', rounds: 2 } })).toEqual(['format.rounds: rounds must be at most agents − 1 (1)']);
    expect(errors({ ...base, format: { kind: 'gauntlet', challengers: 2 } })).toEqual([
      'format.challengers: challengers must be fewer than the agents (2)',
    ]);
    expect(errors({ ...base, challenges: ['psi'] })).toEqual(['challenge: give exactly one of `challenge` or `challenges`']);
    expect(errors({ ...base, challenge: undefined, challenges: ['psi', 'psi'] })).toEqual(["challenges[1]: duplicate challenge 'psi'"]);
    expect(errors({ ...base, limits: { move_seconds: 700, game_seconds: 600 } })).toEqual([
      'limits.move_seconds: move_seconds must not exceed game_seconds',
    ]);
  });

  it('requires unique agent ids (id, else the manifest path)', () => {
    expect(errors({ ...base, agents: [{ manifest: 'a.yaml' }, { manifest: 'a.yaml' }] })).toEqual([
      "agents[1].manifest: duplicate agent id 'a.yaml' (also agents[0]); give one of them a distinct `id`",
    ]);
    // The same manifest twice is fine under two ids (self-play noise studies).
    expect(
      parseTournamentSpec({
        ...base,
        agents: [
          { manifest: 'a.yaml', id: 'a1' },
          { manifest: 'a.yaml', id: 'a2' },
        ],
      }).ok,
    ).toBe(true);
    expect(
      errors({
        ...base,
        agents: [
          { manifest: 'a', id: 'x' },
          { manifest: 'b', id: 'x' },
        ],
      })[0],
    ).toMatch(/^agents\[1\]\.id: duplicate agent id 'x'/);
    expect(errors({ ...base, agents: [{ manifest: 'a', id: 'has space' }, { manifest: 'b' }] })[0]).toMatch(/^agents\[0\]\.id: /);
  });

  it('formats errors from a plain schema parse too', () => {
    const result = TournamentSpecSchema.safeParse({ ...base, name: undefined });
    expect(result.success).toBe(false);
    if (result.success) return;
    // Zod's own wording ("expected string, received undefined") becomes "Required".
    expect(formatSpecErrors(result.error)).toEqual(['name: Required']);
    expect(formatIssuePath(['agents', 3, 'id'])).toBe('agents[3].id');
    expect(formatIssuePath([])).toBe('(root)');
  });
});

describe('from spec to schedule', () => {
  const parse = (over: Record<string, unknown>): TournamentSpec => {
    const result = parseTournamentSpec({ ...base, ...over });
    if (!result.ok) throw new Error(result.errors.join('; '));
    return result.spec;
  };
  const agents = (n: number) => Array.from({ length: n }, (_, i) => ({ manifest: `agents/${i}.yaml` }));
  const seats = (challenge: string): number => (challenge === 'dc' ? 3 : 2);

  it('maps round-robin and gauntlet definitions onto the static scheduler', () => {
    const spec = parse({ agents: agents(4), format: { kind: 'gauntlet', cycles: 2 } });
    expect(staticScheduleConfig(spec, seats)).toEqual({
      format: 'gauntlet',
      agentCount: 4,
      challenges: [{ id: 'psi', seats: 2 }],
      gamesPerPairing: 2,
      seed: '42',
      cycles: 2,
      maxTables: 200,
      challengers: 1,
    });
    expect(runSeed(spec)).toBe('42');
    // Gauntlet, 1 challenger vs 3, 2 cycles, 2 games: 3 × 2 × 2 = 12.
    expect(expectedGameCount(spec, seats)).toEqual({ count: 12, exact: true });
    // Round-robin over psi (C(4,2) = 6 meetings) and dc (C(4,3) = 4 tables), 3 games each: 18 + 12 = 30.
    const rr = parse({ agents: agents(4), challenge: undefined, challenges: ['psi', 'dc'], games_per_pairing: 3 });
    expect(expectedGameCount(rr, seats)).toEqual({ count: 30, exact: true });
  });

  it('counts swiss and knockout games', () => {
    // Swiss, 7 agents: default rounds ceil(log2 7) + 1 = 4; ⌊7/2⌋ = 3 meetings × 2 games × 4 rounds = 24.
    const swiss = parse({ agents: agents(7), format: 'swiss' });
    expect(swissRounds(swiss)).toBe(4);
    expect(expectedGameCount(swiss, seats)).toEqual({ count: 24, exact: true });
    expect(() => staticScheduleConfig(swiss, seats)).toThrow(/depend on results/);
    // Knockout, 5 agents + third place: 4 decisive meetings + 1 = 5 × 2 games = 10, more with tie-breaks.
    const ko = parse({ agents: agents(5), format: { kind: 'knockout', third_place: true } });
    expect(expectedGameCount(ko, seats)).toEqual({ count: 10, exact: false });
  });
});
