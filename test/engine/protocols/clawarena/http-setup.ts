// The per-file setup the ClawArena HTTP tests share: one engine on 127.0.0.1, a validating client on its agent API,
// the agent processes a test starts (killed at the end), and launchers for baseline and script agents.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestServer, type TestServer } from '../../../support/server.js';
import { type AgentRuntime, runBaselineAgent, ValidatingClient, validationFailures } from './helpers.js';

export interface ClawHttp {
  server: TestServer;
  client: ValidatingClient;
  running: { kill(): void }[];
}

/**
 * Starts a server before the file's tests and closes it (after killing what they started) when they are done.
 * With expectValid, the file also fails if any response the validating client saw broke the published documents.
 */
export function setUpClawHttp(options: { expectValid?: boolean } = {}): ClawHttp {
  const http = { running: [] as { kill(): void }[] } as ClawHttp;
  beforeAll(async () => {
    http.server = await startTestServer();
    http.client = new ValidatingClient(`${http.server.url}/api/v1`);
  });
  afterAll(async () => {
    for (const agent of http.running) agent.kill();
    await http.server.close();
    if (options.expectValid) expect(validationFailures).toEqual([]);
  });
  return http;
}

/** Launches a baseline agent on each seat (runtime chosen by seat index), tracked for killing at the end. */
export function startBaselines(http: ClawHttp, seats: { token: string }[], runtimeOf: (i: number) => AgentRuntime) {
  const service = http.server.engine.clawarena;
  return seats.map((s, i) => {
    const env = service.agentEnvironment(s.token);
    const agent = runBaselineAgent(runtimeOf(i), env.CLAWARENA_BASE_URL as string, env.CLAWARENA_CONNECTION_TOKEN as string);
    http.running.push(agent);
    return agent;
  });
}

/** Every baseline exited 0 and never logged a submission the server rejected. */
export async function expectBaselinesClean(agents: { done: Promise<{ code: number | null; stderr: string }> }[]): Promise<void> {
  for (const r of await Promise.all(agents.map((a) => a.done))) {
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr, 'the server refused a baseline submission').not.toContain('rejected');
  }
}

/** Runs a Node script as the agent of one seat (BASE and TOKEN in its environment); resolves with its exit and output. */
export async function runScriptAgent(http: ClawHttp, script: string, seatToken: string) {
  const env = http.server.engine.clawarena.agentEnvironment(seatToken);
  const child = spawn(process.execPath, ['-e', script], {
    env: {
      PATH: process.env.PATH ?? '',
      BASE: env.CLAWARENA_BASE_URL as string,
      TOKEN: env.CLAWARENA_CONNECTION_TOKEN as string,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  http.running.push({ kill: () => child.kill('SIGKILL') });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, out, err };
}

/**
 * A hostile script agent's run: it exited 0 and printed its tally of response statuses, every one a 4xx, over at
 * least `atLeast` submissions.
 */
export function expectAllRefused(run: { code: number | null; out: string; err: string }, atLeast: number): void {
  expect(run.code, run.err).toBe(0);
  const statuses = JSON.parse(run.out) as Record<string, number>;
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThanOrEqual(atLeast);
  expect(
    Object.keys(statuses).every((s) => Number(s) >= 400 && Number(s) < 500),
    JSON.stringify(statuses),
  ).toBe(true);
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Every key the fixture has is present with the same JSON type (null on either side matches anything). */
export function shapeProblems(ours: Record<string, unknown>, theirs: Record<string, unknown>, where: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(theirs)) {
    if (!(k in ours)) out.push(`${where}.${k} missing`);
    else if (v !== null && ours[k] !== null && kind(v) !== kind(ours[k])) out.push(`${where}.${k}: ${kind(ours[k])}, fixture ${kind(v)}`);
  }
  return out;
}
