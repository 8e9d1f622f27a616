// The agent's environment never reaches the host-side helpers (prlimit, setpriv, unshare, bwrap, sandbox-exec): they
// run with a fixed environment of the engine's choosing, and the agent's variables travel through it under a reserved
// prefix, inert to the dynamic loader, until a tiny /bin/sh step — inside the sandbox, or (trusted) the last step
// before the agent — sets them under their own names and execs the agent. A manifest's LD_PRELOAD therefore loads
// only into the agent, where the sandbox holds.

/** Prefix of an agent variable while it crosses the helpers. */
export const HANDOFF_PREFIX = 'ARENA_ENV_';
/** Space-separated names the shim sets. */
export const HANDOFF_NAMES = 'ARENA_ENV_NAMES';
/** The only PATH the helpers see (they are started by absolute path). */
export const HELPER_PATH = '/usr/bin:/bin';

const PORTABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// The loop variable is the list's own name (the list is expanded before the loop starts), so no agent variable collides.
const N = HANDOFF_NAMES;
/**
 * Shell lines that set the handed-off variables under their own names and remove the carriers; a script that already
 * runs in the sandbox (the endpoint forwarder) includes them before its own `exec "$@"`, saving an exec.
 */
export const SET_AGENT_ENV = [
  `for ${N} in $${N}; do eval "export $${N}=\\"\\\${${HANDOFF_PREFIX}$${N}}\\""; unset ${HANDOFF_PREFIX}$${N}; done`,
  `unset ${N}`,
].join('; ');
// Sets them, then execs the agent's argv. The shell exports PWD (the working directory, as bubblewrap's --chdir does).
const SHIM = `${SET_AGENT_ENV}; exec "$@"`;

export interface Handoff {
  /** The helpers' whole environment: fixed PATH, `extra` (the engine's own values), the carried variables. */
  helperEnv: Record<string, string>;
  /** argv prefix that sets the agent's variables, then execs what follows it. */
  shim: string[];
}

/**
 * Encodes `agentEnv` for the helpers. Names the shell cannot set (not portable) are refused: the manifest schema
 * refuses them already, so only an engine caller could pass one.
 */
export function handoff(agentEnv: Record<string, string>, extra: Record<string, string> = {}, shell = '/bin/sh'): Handoff {
  const helperEnv: Record<string, string> = { PATH: HELPER_PATH, ...extra };
  const names = Object.keys(agentEnv);
  for (const name of names) {
    if (!PORTABLE_NAME.test(name) || name.startsWith(HANDOFF_PREFIX))
      throw new Error(`environment variable name ${JSON.stringify(name)} is not a portable name or is reserved`);
    helperEnv[`${HANDOFF_PREFIX}${name}`] = agentEnv[name] as string;
  }
  helperEnv[HANDOFF_NAMES] = names.join(' ');
  return { helperEnv, shim: [shell, '-c', SHIM, 'arena-env'] };
}
