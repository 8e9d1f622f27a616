// Full matches of every game between the baseline agents (Python stdlib and Node) over real HTTP: Liar's Dice through
// the lobby, Claw Vegas and Mafia through tournament seating (createMatch with match-scoped tokens).
import { describe, expect, it } from 'vitest';
import { type AgentRuntime, runBaselineAgent } from './helpers.js';
import { setUpClawHttp } from './http-setup.js';

const http = setUpClawHttp();

async function runAll(launches: { runtime: AgentRuntime; env: Record<string, string> }[]) {
  const agents = launches.map(({ runtime, env }) => {
    const agent = runBaselineAgent(runtime, env.CLAWARENA_BASE_URL as string, env.CLAWARENA_CONNECTION_TOKEN as string);
    http.running.push(agent);
    return agent;
  });
  const results = await Promise.all(agents.map((a) => a.done));
  for (const r of results) expect(r.code, r.stderr).toBe(0);
  return results;
}

function expectFinished(matchId: number, players: number) {
  const match = http.server.engine.clawarena.match(matchId);
  expect(match?.status).toBe('finished');
  const placements = ((match?.result?.placements ?? []) as { placement: number }[]).map((p) => p.placement);
  expect(placements).toHaveLength(players);
  expect(placements.every((p) => p >= 1 && p <= players)).toBe(true);
  return match;
}

describe('baseline agents play complete matches', () => {
  it("Liar's Dice: a Python and a Node client started by hand meet in the lobby", { timeout: 60_000 }, async () => {
    const service = http.server.engine.clawarena;
    const a = service.createAgent({ name: 'lobby-python', preferredGameType: 'liars_dice' });
    const b = service.createAgent({ name: 'lobby-node', preferredGameType: 'liars_dice' });
    await runAll([
      { runtime: 'python', env: service.agentEnvironment(a.token) },
      { runtime: 'node', env: service.agentEnvironment(b.token) },
    ]);
    const matchId = service.recentMatches(10).find((m) => m?.seats.some((s) => s.agentId === a.agent.agentId))?.matchId as number;
    const match = expectFinished(matchId, 2);
    expect(match?.summary).toHaveProperty('challenge.bid_was_true');
    expect(match?.origin).toBe('lobby');
  });

  it('Claw Vegas: four seats from tournament seating play all four rounds', { timeout: 60_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'las_vegas',
      seats: ['vegas-py-0', 'vegas-node-1', 'vegas-py-2', 'vegas-node-3'].map((name) => ({ name })),
      seed: 'full-vegas',
    });
    await runAll(
      created.seats.map((s, i) => ({ runtime: (i % 2 === 0 ? 'python' : 'node') as AgentRuntime, env: service.agentEnvironment(s.token) })),
    );
    const match = expectFinished(created.matchId, 4);
    expect(match?.summary?.settlements).toHaveLength(4);
    const places = service.matchEvents(created.matchId).filter((e) => e.type === 'place');
    expect(places.length).toBeGreaterThanOrEqual(8);
    expect(places.every((e) => !e.isAuto)).toBe(true);
  });

  it('Mafia: six seats play night, discussion and votes to a result', { timeout: 60_000 }, async () => {
    const service = http.server.engine.clawarena;
    const created = service.createMatch({
      gameType: 'mafia',
      seats: Array.from({ length: 6 }, (_, i) => ({ name: `mafia-${i % 2 === 0 ? 'py' : 'node'}-${i}` })),
      seed: 'full-mafia',
    });
    await runAll(
      created.seats.map((s, i) => ({ runtime: (i % 2 === 0 ? 'python' : 'node') as AgentRuntime, env: service.agentEnvironment(s.token) })),
    );
    const match = expectFinished(created.matchId, 6);
    const log = service.matchEvents(created.matchId);
    expect(log.some((e) => e.type === 'chat')).toBe(true);
    expect(log.some((e) => e.type === 'vote_result')).toBe(true);
    expect(log.filter((e) => e.type === 'chat' || e.type === 'vote_submitted').every((e) => !e.isAuto)).toBe(true);
    expect(['mafia_eliminated', 'mafia_parity', 'day_limit']).toContain(match?.result?.finish_reason);
  });
});
