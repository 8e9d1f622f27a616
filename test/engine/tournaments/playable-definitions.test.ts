// Definitions that parse but cannot be played are refused before Start (issue 15): the seat count must lie in the
// catalogue's range and the format must be able to fill its tables; a failed run is final.
import path from 'node:path';
import { expect, it } from 'vitest';
import { engineForFile, manyAgents, ROOT, spec } from './helpers.js';

const ctx = engineForFile();
const api = (p: string) => `${ctx.engine.url}/admin/api/v1${p}`;
const auth = () => ({ authorization: `Bearer ${ctx.engine.token}`, 'content-type': 'application/json' });
const post = (p: string, body: unknown) => fetch(api(p), { method: 'POST', headers: auth(), body: JSON.stringify(body) });

const claw = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ manifest: path.join(ROOT, 'agents/clawarena/baseline-node/agent.yaml'), id: `claw${i}` }));
const diners = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    manifest: path.join(ROOT, 'challenges/dining-cryptographers/agents', i % 2 ? 'guess-unknown' : 'accuse-random', 'agent.yaml'),
    id: `d${i}`,
  }));

it('agrees with the catalogue on seat ranges and refuses tables it cannot fill', async () => {
  const catalog = (await (await fetch(api('/tournaments/catalog'), { headers: auth() })).json()) as {
    challenges: Array<{ id: string; players: { min: number; max: number } }>;
  };
  expect(catalog.challenges.find((c) => c.id === 'las_vegas')?.players).toEqual({ min: 3, max: 5 });
  expect(catalog.challenges.find((c) => c.id === 'dining-cryptographers')?.players).toEqual({ min: 3, max: 3 });

  // Claw Vegas with 2 agents: below the 3–5 the catalogue says. Refused by validate and by create alike.
  const vegas2 = spec({ challenge: 'las_vegas', agents: claw(2) });
  for (const route of ['/tournaments/validate', '/tournaments']) {
    const res = await post(route, { spec: vegas2, base_dir: '/', start: false });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /'las_vegas' seats 3 players per game \(it allows 3–5\): round-robin needs at least 3 agents, the definition has 2/,
    );
  }
  // With 3 agents it plays 3-player tables (the catalogue's minimum), not the 4 of its default: valid, 1 table × 2 games.
  const vegas3 = await post('/tournaments/validate', { spec: spec({ challenge: 'las_vegas', agents: claw(3) }), base_dir: '/' });
  expect(await vegas3.json()).toMatchObject({ ok: true, planned_games: 2 });
  // players outside the range is named as such.
  const vegas6 = await post('/tournaments/validate', {
    spec: spec({ challenge: 'las_vegas', agents: claw(6), options: { players: 6 } }),
    base_dir: '/',
  });
  expect(vegas6.status).toBe(400);

  // Dining Cryptographers has 3 seats: 2 agents cannot fill a table.
  const dc2 = await post('/tournaments/validate', { spec: spec({ challenge: 'dining-cryptographers', agents: diners(2) }), base_dir: '/' });
  expect(dc2.status).toBe(400);
  expect(((await dc2.json()) as { error: string }).error).toMatch(
    /'dining-cryptographers' seats 3 players per game: round-robin needs at least 3 agents, the definition has 2/,
  );
  const dc3 = await post('/tournaments/validate', { spec: spec({ challenge: 'dining-cryptographers', agents: diners(3) }), base_dir: '/' });
  expect(await dc3.json()).toMatchObject({ ok: true });

  // A gauntlet whose field cannot fill the non-challenger seats.
  const gauntlet = await post('/tournaments/validate', {
    spec: spec({ challenge: 'dining-cryptographers', agents: diners(3), format: { kind: 'gauntlet', challengers: 2 } }),
    base_dir: '/',
  });
  expect(gauntlet.status).toBe(400);
  expect(((await gauntlet.json()) as { error: string }).error).toMatch(
    /gauntlet game seats 1 challenger and 2 field agents, the definition has 1 field agent/,
  );
});

it('offers no Resume for a failed run: the engine refuses it', async () => {
  const created = await post('/tournaments', { spec: spec({ agents: manyAgents(2) }), base_dir: '/', start: false });
  const t = (await created.json()) as { id: string };
  ctx.engine.store.tournaments.setStatus(t.id, 'failed', Date.now(), 'could not store game 0: disk full');
  const resumed = await post(`/tournaments/${t.id}/resume`, {});
  expect(resumed.status).toBe(409);
  expect(((await resumed.json()) as { error: string }).error).toMatch(/is failed: could not store game 0: disk full/);
});
