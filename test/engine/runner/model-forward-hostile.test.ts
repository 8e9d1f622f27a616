// A hostile process posing as the model agent (its command runs a file named arena-model-agent.mjs with --config) under
// the real sandbox: it floods its model server with 12 requests at once and tries a second loopback port. The server
// (reporting 1 slot) never sees two at once, the other port stays unreachable, every call is recorded without the key
// the agent sent in its Authorization header. As the engine's user and, as root, as an unprivileged uid.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import YAML from 'yaml';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { launchAgent } from '../../../engine/runner/launch.js';

const KEY = 'sk-hostile-key-0123456789abcdef';
let root: string;
let model: http.Server;
let other: http.Server;
let modelPort: number;
let otherPort: number;
const load = { inFlight: 0, max: 0, posts: 0, otherHits: 0 };

const HOSTILE = `
import http from 'node:http';
const [modelPort, otherPort] = [Number(process.env.MODEL_PORT), Number(process.env.OTHER_PORT)];
const post = (i) => new Promise((resolve) => {
  const req = http.request({ host: '127.0.0.1', port: modelPort, method: 'POST', path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ${KEY}' }, agent: false }, (res) => {
    let body = ''; res.on('data', (c) => (body += c)); res.on('end', () => resolve(res.statusCode));
  });
  req.on('error', (e) => resolve('error ' + e.code));
  req.end(JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'flood ' + i }], seed: i }));
});
const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i)));
const reached = await new Promise((resolve) => {
  const req = http.get({ host: '127.0.0.1', port: otherPort, path: '/', timeout: 2000 }, () => resolve(true));
  req.on('timeout', () => { req.destroy(); resolve(false); });
  req.on('error', () => resolve(false));
});
console.log(JSON.stringify({ uid: process.getuid(), statuses, reached }));
`;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-model-forward-'));
  fs.chmodSync(root, 0o755);
  model = http.createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(req.url === '/props' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ total_slots: 1 }));
      return;
    }
    load.posts++;
    load.inFlight++;
    load.max = Math.max(load.max, load.inFlight);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        load.inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] }));
      }, 30),
    );
  });
  other = http.createServer((_req, res) => {
    load.otherHits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  modelPort = (model.address() as AddressInfo).port;
  otherPort = (other.address() as AddressInfo).port;
});

afterAll(async () => {
  model.closeAllConnections();
  other.closeAllConnections();
  await new Promise((resolve) => model.close(resolve));
  await new Promise((resolve) => other.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

function agentDir(name: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, 'arena-model-agent.mjs'), HOSTILE);
  fs.writeFileSync(
    path.join(dir, 'model.yaml'),
    YAML.stringify({ provider: 'openai-compatible', base_url: `http://127.0.0.1:${modelPort}/v1`, model: 'm' }),
  );
  for (const f of ['arena-model-agent.mjs', 'model.yaml']) fs.chmodSync(path.join(dir, f), 0o644);
  return dir;
}

const variants = [
  { who: 'the engine user', runAs: undefined },
  ...(process.getuid?.() === 0 ? [{ who: 'an unprivileged uid (setpriv)', runAs: { uid: 65534, gid: 65534 } }] : []),
];

it.each(variants)(
  'as $who: one request at a time, nothing else reachable, every call recorded without the key',
  async ({ who, runAs }) => {
    Object.assign(load, { inFlight: 0, max: 0, posts: 0, otherHits: 0 });
    const dir = agentDir(who.replace(/\W+/g, '-'));
    const manifest = AgentManifestSchema.parse({
      id: 'hostile-model',
      name: 'hostile',
      framework: 'node',
      protocol: 'specarena',
      entrypoint: {
        command: ['node', 'arena-model-agent.mjs', '--config', 'model.yaml'],
        env: { MODEL_PORT: String(modelPort), OTHER_PORT: String(otherPort) },
      },
    });
    const workspaceRoot = path.join(root, `ws-${who.replace(/\W+/g, '-')}`);
    fs.mkdirSync(workspaceRoot);
    fs.chmodSync(workspaceRoot, 0o777);
    const result = await launchAgent({
      manifest,
      manifestDir: dir,
      workspaceRoot,
      network: 'none',
      limits: { timeoutMs: 60_000 },
      ...(runAs ? { runAs } : {}),
    }).result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.isolation).toMatchObject({ method: 'bubblewrap', network: 'endpoints', endpoints: [`127.0.0.1:${modelPort}`] });
    const out = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    if (runAs) expect(out.uid).toBe(65534);
    expect(out.statuses).toEqual(Array(12).fill(200));
    expect(out.reached).toBe(false);
    expect(load.otherHits).toBe(0);
    expect(load.posts).toBe(12);
    // The server reported 1 slot: the engine held the other eleven back.
    expect(load.max).toBe(1);
    const calls = result.modelCalls ?? [];
    expect(calls).toHaveLength(12);
    expect(new Set(calls.map((c) => (c.request as { seed: number }).seed))).toEqual(new Set(Array.from({ length: 12 }, (_, i) => i)));
    expect(calls.every((c) => c.status === 200 && c.capacity === 1)).toBe(true);
    expect(calls.some((c) => c.queued_ms > 0)).toBe(true);
    expect(JSON.stringify(calls)).not.toContain(KEY);
  },
  90_000,
);
