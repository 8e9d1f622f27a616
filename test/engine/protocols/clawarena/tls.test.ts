// Loopback TLS: the per-data-dir self-signed certificate (SANs, key match, signature, strict-mode acceptance by
// Python's ssl), an HTTPS listener with only the agent routes, and a full match over https with both baselines.
import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateLoopbackCertificate } from '../../../../engine/http/tls.js';
import { makeTempDataDir, startTestServer, type TestServer } from '../../../support/server.js';
import { runBaselineAgent } from './helpers.js';

let server: TestServer;
let dataDir: string;

/** Runs a child process without blocking the event loop (the server under test lives in this process). */
function run(cmd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

beforeAll(async () => {
  dataDir = makeTempDataDir('arena-tls-');
  server = await startTestServer({ dataDir, tls: true });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('loopback certificate', () => {
  it('is generated once per data dir, self-signed for 127.0.0.1, ::1 and localhost, with a private key file', () => {
    const tls = server.engine.tls;
    expect(tls?.certPath).toBe(path.join(dataDir, 'tls', 'loopback-cert.pem'));
    expect(tls?.generated).toBe(true);
    const cert = new X509Certificate(fs.readFileSync(tls?.certPath as string));
    expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.ca).toBe(false);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.issuer).toBe(cert.subject);
    expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(365 * 24 * 3600_000);
    const keyMode = fs.statSync(path.join(dataDir, 'tls', 'loopback-key.pem')).mode & 0o777;
    expect(keyMode.toString(8)).toBe('600');
    const again = loadOrCreateLoopbackCertificate(dataDir);
    expect(again.generated).toBe(false);
    expect(again.cert).toBe(fs.readFileSync(tls?.certPath as string, 'utf8'));
  });

  it('passes `openssl verify` against itself when openssl is installed', () => {
    const probe = spawnSync('openssl', ['version'], { encoding: 'utf8' });
    if (probe.status !== 0) return;
    const certPath = server.engine.tls?.certPath as string;
    const verify = spawnSync('openssl', ['verify', '-x509_strict', '-CAfile', certPath, certPath], { encoding: 'utf8' });
    expect(verify.stdout + verify.stderr).toContain(': OK');
  });

  it("is trusted by Python's ssl through SSL_CERT_FILE, in strict X.509 mode too", async () => {
    const url = `${server.engine.tls?.url}/api/v1/agents/schema/`;
    const script = [
      'import json, ssl, sys, urllib.request',
      'ctx = ssl.create_default_context()',
      'ctx.verify_flags |= getattr(ssl, "VERIFY_X509_STRICT", 0)',
      `print(json.load(urllib.request.urlopen(${JSON.stringify(url)}, context=ctx))["protocol_version"])`,
      `print(json.load(urllib.request.urlopen(${JSON.stringify(url.replace('127.0.0.1', 'localhost'))}))["protocol_version"])`,
    ].join('\n');
    const trusted = await run('python3', ['-c', script], { PATH: process.env.PATH ?? '', SSL_CERT_FILE: server.engine.tls?.certPath });
    expect(trusted.stderr).toBe('');
    expect(trusted.stdout.trim().split('\n')).toEqual(['5.13.7', '5.13.7']);
    const untrusted = await run('python3', ['-c', script], { PATH: process.env.PATH ?? '' });
    expect(untrusted.status).not.toBe(0);
    expect(untrusted.stderr).toContain('CERTIFICATE_VERIFY_FAILED');
  });
});

describe('HTTPS agent listener', () => {
  it('serves only the ClawArena agent routes', async () => {
    const https = server.engine.tls?.url as string;
    const script = `
      const ca = require('fs').readFileSync(process.argv[1]);
      const get = (p) => new Promise((resolve, reject) => require('https').get(process.argv[2] + p, { ca }, (res) => {
        let body = ''; res.on('data', (d) => (body += d)); res.on('end', () => resolve(res.statusCode + ' ' + body.slice(0, 40)));
      }).on('error', reject));
      (async () => { for (const p of ['/api/v1/agents/schema/', '/admin/api/v1/overview', '/api/metadata']) console.log(await get(p)); })();
    `;
    const out = await run(process.execPath, ['-e', script, server.engine.tls?.certPath as string, https]);
    const [schema, admin, specarena] = out.stdout.trim().split('\n');
    expect(schema).toMatch(/^200 /);
    expect(admin).toMatch(/^404 /);
    expect(specarena).toMatch(/^404 /);
  });

  it("carries a full Liar's Dice match between the Python (SSL_CERT_FILE) and Node (NODE_EXTRA_CA_CERTS) baselines", {
    timeout: 60_000,
  }, async () => {
    const service = server.engine.clawarena;
    const created = service.createMatch({ gameType: 'liars_dice', seats: [{ name: 'tls-python' }, { name: 'tls-node' }] });
    const certPath = server.engine.tls?.certPath as string;
    const [py, node] = created.seats.map((s) => service.agentEnvironment(s.token, true));
    expect(py?.CLAWARENA_BASE_URL).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    const agents = [
      runBaselineAgent('python', py?.CLAWARENA_BASE_URL as string, py?.CLAWARENA_CONNECTION_TOKEN as string, { SSL_CERT_FILE: certPath }),
      runBaselineAgent('node', node?.CLAWARENA_BASE_URL as string, node?.CLAWARENA_CONNECTION_TOKEN as string, {
        NODE_EXTRA_CA_CERTS: certPath,
      }),
    ];
    const results = await Promise.all(agents.map((a) => a.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(service.match(created.matchId)?.status).toBe('finished');
  });
});
