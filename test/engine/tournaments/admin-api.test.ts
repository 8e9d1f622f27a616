// The tournament admin API and its SSE feed, as the UI uses them (scripted games keep it fast).
import { expect, it } from 'vitest';
import { engineForFile, lowerIndexWins, manyAgents, scripted, spec } from './helpers.js';

const ctx = engineForFile((e) => {
  e.tournaments.overrides.runners = scripted(lowerIndexWins);
});
const api = (p: string) => `${ctx.engine.url}/admin/api/v1${p}`;
const auth = () => ({ authorization: `Bearer ${ctx.engine.token}`, 'content-type': 'application/json' });

/** Reads SSE events until `stop` says so. */
async function readEvents(url: string, stop: (event: string) => boolean): Promise<string[]> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${ctx.engine.token}` } });
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const seen: string[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const name = /^event: (.*)$/m.exec(buffer.slice(0, cut))?.[1];
      buffer = buffer.slice(cut + 2);
      if (name) {
        seen.push(name);
        if (stop(name)) {
          await reader.cancel();
          return seen;
        }
      }
      cut = buffer.indexOf('\n\n');
    }
  }
  return seen;
}

it('needs the admin token', async () => {
  expect((await fetch(api('/tournaments'))).status).toBe(401);
});

it('validates with one line per problem', async () => {
  const bad = await fetch(api('/tournaments/validate'), {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ spec: { name: 'x', challenge: 'nope' } }),
  });
  expect(bad.status).toBe(400);
  const body = (await bad.json()) as { error: string };
  expect(body.error).toContain('format: Required');
  const ok = await fetch(api('/tournaments/validate'), {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ spec: spec(), base_dir: '/' }),
  });
  expect(await ok.json()).toMatchObject({ ok: true, agents: ['truthful', 'bluffer'] });
  const yaml = await fetch(api('/tournaments/validate'), {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ spec_text: 'name: [unclosed' }),
  });
  expect(yaml.status).toBe(400);
});

it('create → SSE until finished → standings, games, transcript, exports', async () => {
  const created = await fetch(api('/tournaments'), {
    method: 'POST',
    headers: auth(),
    body: JSON.stringify({ spec: spec({ agents: manyAgents(3), games_per_pairing: 2, concurrency: 1 }), base_dir: '/', start: false }),
  });
  expect(created.status).toBe(200);
  const t = (await created.json()) as { id: string; status: string; planned_games: number };
  expect(t).toMatchObject({ status: 'paused', planned_games: 6 });

  const events = readEvents(api(`/tournaments/${t.id}/events`), (name) => name === 'finished');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect((await fetch(api(`/tournaments/${t.id}/start`), { method: 'POST', headers: auth(), body: '{}' })).status).toBe(200);
  const seen = await events;
  expect(seen[0]).toBe('snapshot');
  expect(seen).toContain('started');
  expect(seen.filter((e) => e === 'game_ended')).toHaveLength(6);

  const standings = (await (await fetch(api(`/tournaments/${t.id}/standings`), { headers: auth() })).json()) as {
    standings: { combined: Array<{ agent: string; wins: number }> };
  };
  expect(standings.standings.combined[0]).toMatchObject({ agent: 'a0', wins: 4 });
  // Scripted agents make no model calls: the cost columns are present and null (undefined), never 0.
  expect(standings.standings.combined[0]).toMatchObject({ tokens: null, cost_usd: null, cost_per_rating_point: null });

  const games = (await (await fetch(api(`/tournaments/${t.id}/games?agent=a2&limit=10`), { headers: auth() })).json()) as { total: number };
  expect(games.total).toBe(4);
  const one = (await (await fetch(api(`/tournaments/${t.id}/games/0`), { headers: auth() })).json()) as { game: { seat_agents: string[] } };
  expect(one.game.seat_agents).toHaveLength(2);

  const csv = await fetch(api(`/tournaments/${t.id}/exports/standings.csv`), { headers: auth() });
  expect(csv.status).toBe(200);
  const text = await csv.text();
  // The header row comes first; a0 won everything, so its rating has no upper bound ("[> …]").
  expect(text.split('\n')[0]).toMatch(/^scope,rank,rank_best,rank_worst,agent,agent_name,/);
  expect(text).toMatch(/\ncombined,1,1,3,a0,Truthful,4,4,0,0,4,100,[0-9.]+,[0-9.]+,,\d+ \[> \d+\],/);
  for (const file of ['games.csv', 'manifest.json'])
    expect((await fetch(api(`/tournaments/${t.id}/exports/${file}`), { headers: auth() })).status).toBe(200);
  expect((await fetch(api(`/tournaments/${t.id}/exports/secrets.txt`), { headers: auth() })).status).toBe(404);

  const list = (await (await fetch(api('/tournaments'), { headers: auth() })).json()) as {
    tournaments: Array<{ id: string; status: string }>;
  };
  expect(list.tournaments.find((x) => x.id === t.id)?.status).toBe('finished');
  expect((await fetch(api(`/tournaments/${t.id}/start`), { method: 'POST', headers: auth(), body: '{}' })).status).toBe(409);
  expect((await fetch(api('/tournaments/t-nope/standings'), { headers: auth() })).status).toBe(404);
});
