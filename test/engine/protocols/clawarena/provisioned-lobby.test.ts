// The legacy setup path of the starter kit: agents created by `POST /agents/provision/` (no owner step) are queued for
// the default lobby game and play a match against each other over real HTTP.
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { runBaselineAgent, ValidatingClient, validationFailures } from './helpers.js';

const servers: TestServer[] = [];
const running: { kill(): void }[] = [];
afterAll(async () => {
  for (const agent of running) agent.kill();
  for (const server of servers) await server.close();
  expect(validationFailures).toEqual([]);
});

async function provision(c: ValidatingClient, name: string) {
  const res = await c.call<{ agent_id: number; connection_token: string; message: string }>('POST', '/agents/provision/', {
    body: { name, runtime_kind: 'openclaw' },
    token: null,
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe('provisioned agents play', () => {
  it('two agents provisioned over HTTP with no owner step meet in the default lobby and finish a match', { timeout: 60_000 }, async () => {
    const server = await startTestServer();
    servers.push(server);
    const base = `${server.url}/api/v1`;
    const c = new ValidatingClient(base);
    const schema = await c.call<{ games: Record<string, unknown> }>('GET', '/agents/schema/', { token: null });
    const firstGame = Object.keys(schema.body.games)[0];
    expect(firstGame).toBe('liars_dice');
    const a = await provision(c, 'kit-one');
    const b = await provision(c, 'kit-two');
    expect(a.message).toContain('liars_dice');

    const agents = [runBaselineAgent('python', base, a.connection_token), runBaselineAgent('node', base, b.connection_token)];
    running.push(...agents);
    const results = await Promise.all(agents.map((agent) => agent.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);

    const service = server.engine.clawarena;
    const match = service.recentMatches(10).find((m) => m?.seats.some((s) => s.agentId === a.agent_id));
    expect(match?.gameType).toBe('liars_dice');
    expect(match?.origin).toBe('lobby');
    expect(match?.status).toBe('finished');
    expect(match?.seats.map((s) => s.agentId).sort()).toEqual([a.agent_id, b.agent_id].sort());
  });

  it('--clawarena-default-game picks the lobby of provisioned agents; an unknown game refuses to start', async () => {
    const server = await startTestServer({ clawarenaDefaultGame: 'las_vegas' });
    servers.push(server);
    const c = new ValidatingClient(`${server.url}/api/v1`);
    const a = await provision(c, 'vegas-kit');
    expect(server.engine.clawarena.agent(a.agent_id)?.preferredGameType).toBe('las_vegas');
    // Queued on its first poll: waiting for three more players of that game.
    const poll = await c.poll({}, a.connection_token);
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('waiting');
    await expect(startTestServer({ clawarenaDefaultGame: 'chess' })).rejects.toThrow(/unknown default game type chess/);
  });
});
