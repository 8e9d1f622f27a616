// `arena clawarena agents …` (in process): provisioning prints a working token, rotation revokes the old one, and
// the lobby game and guidance can be changed; `arena serve` refuses TLS options without --tls.
import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../../engine/cli/args.js';
import { clawarenaCommand } from '../../../../engine/cli/commands/clawarena.js';
import { serveCommand } from '../../../../engine/cli/commands/serve.js';
import { makeTempDataDir, startTestServer } from '../../../support/server.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await clawarenaCommand(args), out };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('arena clawarena', () => {
  it('adds an agent, prints its token once, and the running engine accepts it at once', async () => {
    const dataDir = makeTempDataDir('arena-claw-cli-');
    dirs.push(dataDir);
    const server = await startTestServer({ dataDir });
    try {
      const added = await cli(['agents', 'add', 'kit-one', '--game', 'liars_dice', '--risk', 'balanced', '--data-dir', dataDir, '--json']);
      expect(added.code).toBe(0);
      const info = JSON.parse(added.out) as { agentId: number; name: string; game: string; token: string };
      expect(info).toMatchObject({ name: 'kit-one', game: 'liars_dice' });
      expect(JSON.parse(Buffer.from(info.token, 'base64url').toString())).toMatchObject({ a: info.agentId });
      const poll = (t: string) => fetch(`${server.url}/api/v1/agents/game/?wait=0`, { headers: { authorization: `Bearer ${t}` } });
      expect((await poll(info.token)).status).toBe(200);

      const rotated = await cli(['agents', 'token', 'kit-one', '--data-dir', dataDir]);
      const newToken = rotated.out.trim().split('\n').at(-1) as string;
      expect((await poll(newToken)).status).toBe(200);
      expect((await poll(info.token)).status).toBe(401);

      const set = await cli(['agents', 'set', 'kit-one', '--game', 'none', '--strategy-hint', 'Play tight.', '--data-dir', dataDir]);
      expect(set.code).toBe(0);
      const list = await cli(['agents', 'list', '--data-dir', dataDir, '--json']);
      expect(JSON.parse(list.out)).toEqual([expect.objectContaining({ name: 'kit-one', game: null })]);
      expect(server.engine.clawarena.agentByName('kit-one')?.preferences).toMatchObject({
        strategy_hint: 'Play tight.',
        risk_profile: 'balanced',
      });
      expect((await cli(['matches', '--data-dir', dataDir])).out).toContain('No matches yet.');
    } finally {
      await server.close({ keepDataDir: true });
    }
  });

  it('reports usage errors for unknown games, duplicate names and unknown agents', async () => {
    const dataDir = makeTempDataDir('arena-claw-cli-');
    dirs.push(dataDir);
    await expect(cli(['agents', 'add', 'x', '--game', 'chess', '--data-dir', dataDir])).rejects.toBeInstanceOf(UsageError);
    expect((await cli(['agents', 'add', 'dup', '--data-dir', dataDir])).code).toBe(0);
    await expect(cli(['agents', 'add', 'dup', '--data-dir', dataDir])).rejects.toThrow(/already exists/);
    await expect(cli(['agents', 'token', 'ghost', '--data-dir', dataDir])).rejects.toThrow(/no ClawArena agent/);
    await expect(cli(['agents', 'fly', '--data-dir', dataDir])).rejects.toBeInstanceOf(UsageError);
  });
});

describe('arena serve TLS options', () => {
  it('need --tls, and the certificate and key go together', async () => {
    await expect(serveCommand(['--tls-port', '0'])).rejects.toThrow(/need --tls/);
    await expect(serveCommand(['--tls', '--tls-cert', 'a.pem'])).rejects.toThrow(/go together/);
  });
});
