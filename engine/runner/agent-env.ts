// The agent's environment: a short host allow-list, then the manifest's env, then the secrets the user granted, then
// the runner's own ARENA_* variables (spec §4.1, decision 13(f)). Nothing else of the host — no other ARENA_* variable,
// no admin credential — can reach an agent.
import type { AgentManifest } from '../contract/manifest.js';

const POSIX_ALLOW_LIST = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ'] as const;
/** Windows programs need these to start at all. */
const WINDOWS_EXTRA = ['SystemRoot', 'ComSpec', 'PATHEXT', 'TEMP', 'TMP'] as const;

export function hostAllowList(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? [...POSIX_ALLOW_LIST, ...WINDOWS_EXTRA] : POSIX_ALLOW_LIST;
}

/** The granted secrets that are actually set on the host, by name. */
export function grantedSecrets(manifest: Pick<AgentManifest, 'secrets'>, hostEnv: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of manifest.secrets) {
    const value = hostEnv[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

export interface AgentEnvInput {
  manifest: Pick<AgentManifest, 'secrets' | 'entrypoint'>;
  hostEnv: NodeJS.ProcessEnv;
  /** Runner variables (ARENA_*); they win over everything. */
  runnerEnv: Record<string, string>;
  platform?: NodeJS.Platform;
}

export function buildAgentEnv({ manifest, hostEnv, runnerEnv, platform = process.platform }: AgentEnvInput): Record<string, string> {
  const env: Record<string, string> = {};
  const lookup = caseInsensitiveLookup(hostEnv, platform === 'win32');
  for (const name of hostAllowList(platform)) {
    const value = lookup(name);
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, manifest.entrypoint.env, grantedSecrets(manifest, hostEnv), runnerEnv);
  return env;
}

/** Windows environment names are case-insensitive (`Path`, `SYSTEMROOT`). */
function caseInsensitiveLookup(env: NodeJS.ProcessEnv, insensitive: boolean): (name: string) => string | undefined {
  if (!insensitive) return (name) => env[name];
  const lower = new Map(Object.entries(env).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name.toLowerCase());
}
