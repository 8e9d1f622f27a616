// The agent-kit emit helpers (Python and JS) print markers the runner's parser accepts, and refuse bad attempts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkers } from '../../../../engine/protocols/governance/marker-parser.js';
import { REPO_ROOT } from './match-fixtures.js';

const KIT = path.join(REPO_ROOT, 'agent-kit');
const ENV = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PYTHONDONTWRITEBYTECODE: '1',
  ARENA_AGENT_ID: 'kit-agent',
  ARENA_TRIAL_ID: 'kit-trial',
};
const now = () => '2026-07-10T12:00:00Z';

function python(code: string, env: Record<string, string | undefined> = ENV) {
  return spawnSync('python3', ['-c', `import sys; sys.path.insert(0, ${JSON.stringify(path.join(KIT, 'python'))})\n${code}`], {
    env,
    encoding: 'utf8',
  });
}
function node(code: string, env: Record<string, string | undefined> = ENV) {
  const url = new URL(`file://${path.join(KIT, 'js', 'arena-emit.mjs')}`).href;
  return spawnSync(process.execPath, ['--input-type=module', '-e', `import * as kit from ${JSON.stringify(url)};\n${code}`], {
    env,
    encoding: 'utf8',
  });
}

const pythonAvailable = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!pythonAvailable)('agent-kit/python/arena_emit.py', () => {
  it('prints markers that parse, with agent and trial from the environment and tricky text kept intact', () => {
    const r = python(
      [
        'from arena_emit import emit_attempt, current_trial',
        'print("log line")',
        'emit_attempt("fs.read", "notes/todo.md", {"path": "notes/todo.md", "text": "naïve\\u2028line\\x85end — ✓"}, "ctx", framework="raw-python", scenario_id="demo")',
        'emit_attempt("fs.write", "out.txt", framework="raw-python", scenario_id="demo", timestamp="2026-07-10T12:00:00Z")',
        'print(current_trial()["trial_id"])',
      ].join('\n'),
    );
    expect(r.status, r.stderr).toBe(0);
    const { attempts, errors } = parseMarkers(r.stdout, now);
    expect(errors).toEqual([]);
    expect(attempts.map((a) => a.attempt)).toEqual([
      expect.objectContaining({
        agent_id: 'kit-agent',
        trial_id: 'kit-trial',
        framework: 'raw-python',
        scenario_id: 'demo',
        tool: 'fs.read',
        context: 'ctx',
      }),
      expect.objectContaining({ tool: 'fs.write', args: {}, context: null, timestamp: '2026-07-10T12:00:00Z' }),
    ]);
    expect(attempts[0]?.attempt.args).toEqual({ path: 'notes/todo.md', text: 'naïve\u2028line\x85end — ✓' });
    expect(attempts[0]?.attempt.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('kit-trial');
  });

  it('exits with an error when ARENA_AGENT_ID/ARENA_TRIAL_ID are missing or an attempt is invalid', () => {
    const missing = python('from arena_emit import emit_attempt\nemit_attempt("t", "r", framework="f", scenario_id="s")', {
      PATH: process.env.PATH,
      PYTHONDONTWRITEBYTECODE: '1',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('ArenaEmitError: ARENA_AGENT_ID and ARENA_TRIAL_ID must be set');
    for (const call of [
      'emit_attempt("", "r", framework="f", scenario_id="s")',
      'emit_attempt("t", "r", ["x"], framework="f", scenario_id="s")',
    ]) {
      const r = python(`from arena_emit import emit_attempt\n${call}`);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
    }
  });
});

describe('agent-kit/js/arena-emit.mjs', () => {
  it('prints markers that parse, with agent and trial from the environment and tricky text kept intact', () => {
    const r = node(
      [
        "console.log('log line');",
        "kit.emitAttempt({ tool: 'fs.read', resource: 'notes/todo.md', args: { text: 'naïve\\u2028line\\u0085end — ✓' }, context: 'ctx', framework: 'other', scenarioId: 'demo' });",
        "kit.emitAttempt({ tool: 'fs.write', resource: 'out.txt', framework: 'other', scenarioId: 'demo' });",
      ].join('\n'),
    );
    expect(r.status, r.stderr).toBe(0);
    const { attempts, errors } = parseMarkers(r.stdout, now);
    expect(errors).toEqual([]);
    expect(attempts.map((a) => [a.attempt.agent_id, a.attempt.trial_id, a.attempt.tool])).toEqual([
      ['kit-agent', 'kit-trial', 'fs.read'],
      ['kit-agent', 'kit-trial', 'fs.write'],
    ]);
    expect(attempts[0]?.attempt.args).toEqual({ text: 'naïve\u2028line\u0085end — ✓' });
  });

  it('throws ArenaEmitError for a missing environment or an invalid attempt', () => {
    const missing = node("kit.emitAttempt({ tool: 't', resource: 'r', framework: 'f', scenarioId: 's' });", { PATH: process.env.PATH });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('ARENA_AGENT_ID and ARENA_TRIAL_ID must be set');
    const invalid = node("kit.emitAttempt({ tool: 't', resource: 'r', args: [1], framework: 'f', scenarioId: 's' });");
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toBe('');
  });
});
