// Guards that held before the identity and secrets work and must keep holding, each against the real thing:
// static-file path traversal (raw request paths, never normalised by a client), deeply nested JSON bodies, shell
// metacharacters in an agent's entrypoint.command (real processes, no shell), and the admin token outside the
// engine process (its argv and environment, a debug log, a launched agent's environment).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentManifestSchema } from '../../../engine/contract/manifest.js';
import { launchAgent } from '../../../engine/runner/launch.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const temps: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A GET with the path sent byte for byte (fetch and URL would resolve `..` before sending). */
function rawGet(url: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files', () => {
  let server: TestServer;
  const SECRET = 'outside-the-renderer-7c1d';
  beforeAll(async () => {
    const base = tempDir('arena-static-');
    const renderer = path.join(base, 'renderer');
    fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>ui</title>');
    fs.writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
    fs.writeFileSync(path.join(base, 'secret.txt'), SECRET);
    server = await startTestServer({ rendererDir: renderer });
  });
  afterAll(async () => server?.close());

  it('serves the UI and nothing outside its folder, however the path is spelled', async () => {
    expect((await rawGet(server.url, '/assets/app.js')).status).toBe(200);
    for (const p of [
      '/assets/../secret.txt',
      '/assets/../../secret.txt',
      '/assets/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/....//....//secret.txt',
      '/assets/%252e%252e/secret.txt',
      `/assets/${encodeURIComponent(path.join(os.tmpdir(), 'secret.txt'))}`,
      '/../secret.txt',
    ]) {
      const res = await rawGet(server.url, p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.body, p).not.toContain(SECRET);
    }
  });
});

describe('JSON bodies', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => server?.close());

  it('answers deeply nested JSON with a 4xx and keeps serving', async () => {
    const depth = 100_000;
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const [route, body, auth] of [
      ['/api/chat/send', arrays, false],
      ['/api/arena/message', objects, false],
      ['/admin/api/v1/tournaments/validate', `{"spec":${objects}}`, true],
      ['/admin/api/v1/launch-code', `{"code":${arrays}}`, false],
    ] as const) {
      const res = await fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${server.token}` } : {}) },
        body,
      });
      expect(res.status, route).toBeGreaterThanOrEqual(400);
      expect(res.status, route).toBeLessThan(500);
    }
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});

describe('entrypoint.command', () => {
  it('never goes through a shell: metacharacters are plain arguments', async () => {
    const dir = tempDir('arena-shell-');
    fs.writeFileSync(path.join(dir, 'echo-args.js'), 'console.log(JSON.stringify(process.argv.slice(2)))');
    const manifest = AgentManifestSchema.parse({
      id: 'shell-agent',
      name: 'Shell',
      framework: 'other',
      runtime: { type: 'process' },
      scenarios: ['fixture-scenario'],
      entrypoint: {
        type: 'command',
        command: 'node echo-args.js ; touch PWNED1 && touch PWNED2 | touch PWNED3 $(touch PWNED4) `touch PWNED5` > out',
      },
    });
    const result = await launchAgent({
      manifest,
      manifestDir: dir,
      workspaceRoot: dir,
      workspaceName: 'ws',
      hostEnv: { PATH: process.env.PATH },
    }).result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual([
      ';',
      'touch',
      'PWNED1',
      '&&',
      'touch',
      'PWNED2',
      '|',
      'touch',
      'PWNED3',
      '$(touch',
      'PWNED4)',
      '`touch',
      'PWNED5`',
      '>',
      'out',
    ]);
    const everything = fs.readdirSync(dir, { recursive: true }) as string[];
    expect(everything.filter((f) => /PWNED|(^|\/)out$/.test(f))).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('the admin token stays in the engine process', () => {
  it('is not in an agent environment, even when the host environment has one', async () => {
    const server = await startTestServer();
    try {
      const dir = tempDir('arena-env-');
      fs.writeFileSync(path.join(dir, 'dump.js'), 'console.log(JSON.stringify(process.env))');
      const manifest = AgentManifestSchema.parse({
        id: 'env-agent',
        name: 'Env',
        framework: 'other',
        runtime: { type: 'process' },
        scenarios: ['fixture-scenario'],
        entrypoint: { type: 'command', command: ['node', 'dump.js'] },
      });
      const result = await launchAgent({
        manifest,
        manifestDir: dir,
        workspaceRoot: dir,
        hostEnv: { PATH: process.env.PATH, ARENA_ADMIN_TOKEN: server.token, ARENA_TOKEN: server.token },
      }).result;
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain(server.token);
      expect(Object.keys(JSON.parse(result.stdout.trim()) as object).filter((k) => k.includes('TOKEN'))).toEqual([]);
      // Nor in this (engine) process's own argv or environment as the OS shows them to other processes.
      expect(fs.readFileSync('/proc/self/cmdline').toString('latin1')).not.toContain(server.token);
      expect(fs.readFileSync('/proc/self/environ').toString('latin1')).not.toContain(server.token);
    } finally {
      await server.close();
    }
  });
});
