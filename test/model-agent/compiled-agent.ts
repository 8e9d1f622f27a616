// Compiles the model agent (engine/model-agent, TypeScript) into a throwaway copy of the repo layout inside
// node_modules/.cache — `dist/engine/model-agent/main.js` plus the launcher `agents/model-agent/arena-model-agent.mjs` —
// so tests run the real program through its launcher without depending on a prior `npm run build`. Inside the repo,
// so the compiled files still resolve the repo's node_modules.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CompiledAgent {
  /** Root of the throwaway layout. */
  root: string;
  /** Its agents/model-agent folder: manifests placed under examples/<name>/ reach the launcher as ../../. */
  agentHome: string;
  remove(): void;
}

export function compileModelAgent(): CompiledAgent {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, 'model-agent-test-'));
  const tsconfig = {
    extends: path.join(ROOT, 'tsconfig.base.json'),
    compilerOptions: { lib: ['ES2023'], types: ['node'], rootDir: ROOT, outDir: path.join(dir, 'dist'), noEmit: false, sourceMap: false },
    files: [path.join(ROOT, 'engine', 'model-agent', 'main.ts')],
  };
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  const agentHome = path.join(dir, 'agents', 'model-agent');
  fs.mkdirSync(agentHome, { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'agents', 'model-agent', 'arena-model-agent.mjs'), path.join(agentHome, 'arena-model-agent.mjs'));
  return { root: dir, agentHome, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface LiarsDiceModelAgent {
  /** The agent's id, and its folder's name under examples/. */
  id: string;
  baseUrl: string;
  model?: string;
  name?: string;
  /** model.yaml `cache: true`. */
  cache?: boolean;
}

/**
 * Writes a Liar's Dice model agent (ClawArena protocol, seed 7, generous clocks) into the compiled layout and returns
 * its agent.yaml: the folder the replay, cache and build tests play against the seeded Node baseline.
 */
export function writeLiarsDiceModelAgent(compiled: CompiledAgent, agent: LiarsDiceModelAgent): string {
  const dir = path.join(compiled.agentHome, 'examples', agent.id);
  fs.mkdirSync(dir, { recursive: true });
  const model = {
    provider: 'openai-compatible',
    base_url: agent.baseUrl,
    model: agent.model ?? 'fake-model',
    seed: 7,
    ...(agent.cache ? { cache: true } : {}),
    timeouts: { turn_seconds: 20, request_seconds: 20 },
    max_turns: 200,
    game_seconds: 80,
  };
  const manifest = {
    id: agent.id,
    name: agent.name ?? agent.id,
    framework: 'node',
    protocol: 'clawarena',
    challenges: ['liars_dice'],
    entrypoint: { command: ['node', '../../arena-model-agent.mjs', '--config', 'model.yaml', '--protocol', 'clawarena'] },
    limits: { memory_mb: 16384 },
  };
  fs.writeFileSync(path.join(dir, 'model.yaml'), YAML.stringify(model));
  fs.writeFileSync(path.join(dir, 'agent.yaml'), YAML.stringify(manifest));
  return path.join(dir, 'agent.yaml');
}
