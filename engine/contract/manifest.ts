// Agent manifests (`agent.yaml`): the ai-agent-assembly/arena format (spec §2.2), accepted unchanged, plus Local Arena's
// optional fields (challenges, protocol, limits, secrets, description) and the SpecArena baseline form
// (`entrypoint: {command: [argv…]}` without a type, `author` as a plain string).
import { z } from 'zod';
import { duplicates, KEBAB_CASE } from './governance.js';
import { seatLimitFields } from './seat-limits.js';
import { limitSeconds } from './timer-limits.js';

export const REFERENCE_FRAMEWORKS = ['raw-python', 'langgraph', 'crewai', 'pydantic-ai', 'autogen', 'other'] as const;
/** Local Arena additions for agents that are not governance agents (the SpecArena baselines are `node`). */
export const PROJECT_FRAMEWORKS = ['node', 'python'] as const;
export const AGENT_PROTOCOLS = ['specarena', 'clawarena', 'governance'] as const;

export const FrameworkSchema = z.enum([...REFERENCE_FRAMEWORKS, ...PROJECT_FRAMEWORKS]);
export const AgentProtocolSchema = z.enum(AGENT_PROTOCOLS);
/** per-game: a fresh process per game (default). persistent: one process per concurrent slot plays game after game. */
export const AGENT_LIFECYCLES = ['per-game', 'persistent'] as const;
export const AgentLifecycleSchema = z.enum(AGENT_LIFECYCLES);
export type AgentLifecycle = z.infer<typeof AgentLifecycleSchema>;
export type AgentProtocol = z.infer<typeof AgentProtocolSchema>;

const KEBAB_MESSAGE = 'must be kebab-case: lowercase letters and digits separated by single hyphens';
export const AgentIdSchema = z
  .string()
  .min(2, 'must be 2 to 64 characters long')
  .max(64, 'must be 2 to 64 characters long')
  .regex(KEBAB_CASE, KEBAB_MESSAGE);

const notBlank = z.string().refine((s) => s.trim().length > 0, 'must not be blank');
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Variables that change how a host program (its dynamic loader or libc) loads code or reads files: the loader's
 * `LD_*`, macOS `DYLD_*`, and glibc's path hooks. A manifest may not set or grant them. The runner never lets an
 * agent's variable reach a host-side helper anyway (engine/runner/env-handoff.ts); this is the second line. Runtime
 * options (NODE_OPTIONS, PYTHONPATH…) stay allowed: they configure only the agent's own runtime, inside its sandbox.
 */
export const LOADER_VARIABLE = /^(LD_|DYLD_)|^(GCONV_PATH|GLIBC_TUNABLES|LOCPATH|NLSPATH|HOSTALIASES|RESOLV_HOST_CONF)$/;
const LOADER_MESSAGE =
  'is a loader variable (LD_*, DYLD_*, GCONV_PATH, GLIBC_TUNABLES, LOCPATH, NLSPATH, HOSTALIASES, RESOLV_HOST_CONF): a manifest may not set it';
/** Total size of `entrypoint.env` (names, values, `=` and terminator): far below any exec limit (E2BIG). */
export const MAX_ENTRYPOINT_ENV_BYTES = 64 * 1024;
/** `limits.memory_mb` ceiling: 1 TiB of address space. */
export const MAX_MEMORY_MB = 1024 * 1024;

/** UTF-8 length of a string (the contract layer has no TextEncoder/Buffer in every build). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

const envName = z
  .string()
  .regex(ENV_NAME, 'must be an environment variable name')
  .refine((s) => !LOADER_VARIABLE.test(s), LOADER_MESSAGE);

const EntrypointSchema = z
  .strictObject({
    type: z.enum(['command', 'docker']).optional(),
    /** A command line (split like POSIX shlex, no shell) or, Local Arena form, an argument vector. */
    command: z
      .union([z.string(), z.array(z.string().min(1, 'arguments must not be empty')).min(1, 'needs at least the program')])
      .nullable()
      .optional(),
    image: z.string().nullable().optional(),
    env: z
      .record(
        z.string(),
        z.string().refine((v) => !v.includes('\0'), 'must not contain a NUL character'),
      )
      .default({}),
  })
  .superRefine((entry, ctx) => {
    let bytes = 0;
    for (const [name, value] of Object.entries(entry.env)) {
      bytes += utf8Length(name) + utf8Length(value) + 2;
      const checked = envName.safeParse(name);
      if (!checked.success) ctx.addIssue({ code: 'custom', path: ['env', name], message: checked.error.issues[0]?.message ?? 'invalid' });
    }
    if (bytes > MAX_ENTRYPOINT_ENV_BYTES)
      ctx.addIssue({
        code: 'custom',
        path: ['env'],
        message: `is ${bytes} bytes in total; at most ${MAX_ENTRYPOINT_ENV_BYTES} (64 KiB) are allowed`,
      });
    const type = entry.type ?? (entry.image ? 'docker' : 'command');
    const emptyCommand =
      entry.command === undefined || entry.command === null || (typeof entry.command === 'string' && entry.command.trim() === '');
    if (type === 'command' && emptyCommand)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'is required (non-empty) for a command entrypoint' });
    if (type === 'docker' && !entry.image)
      ctx.addIssue({ code: 'custom', path: ['image'], message: 'is required (non-empty) for a docker entrypoint' });
  })
  .transform((entry) => ({
    type: entry.type ?? (entry.image ? ('docker' as const) : ('command' as const)),
    command: entry.command ?? null,
    image: entry.image ?? null,
    env: entry.env,
  }));

const AuthorSchema = z.union([
  z.string().min(1),
  z.strictObject({
    github: z.string().nullable().optional(),
    name: z.string().nullable().optional(),
    contact: z.string().nullable().optional(),
  }),
]);

const BehaviorSchema = z.strictObject({ id: AgentIdSchema, description: z.string().min(1) });

const LimitsSchema = z.strictObject({
  ...seatLimitFields,
  /** Per-move deadline for challenge games. */
  move_seconds: limitSeconds().optional(),
  /** Whole-run deadline: a challenge game, or one governance trial. */
  game_seconds: limitSeconds().optional(),
  /** Address-space limit for a process, memory limit for a container. */
  memory_mb: z.int().min(16).max(MAX_MEMORY_MB, `must be at most ${MAX_MEMORY_MB} (1 TiB)`).optional(),
});

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * `host:port` an agent may reach from its sandbox (a model server, an API). The sandbox has no route out: each entry
 * is forwarded by the engine, so it must be a host name (resolved by the engine at connect time) or a loopback
 * address; another IP address could not be served inside under its own address.
 */
export const NetworkEndpointSchema = z.string().superRefine((value, ctx) => {
  const match = /^(.*):(\d{1,5})$/.exec(value);
  const port = match ? Number(match[2]) : 0;
  const host = match?.[1] ?? '';
  if (!match || port < 1 || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'must be host:port with a port from 1 to 65535 (e.g. "api.openai.com:443")' });
    return;
  }
  if (IPV4.test(host)) {
    const octets = host.split('.').map(Number);
    if (octets.some((o) => o > 255)) ctx.addIssue({ code: 'custom', message: `${host} is not an IPv4 address` });
    else if (octets[0] !== 127)
      ctx.addIssue({ code: 'custom', message: `only loopback addresses (127.x.x.x) or host names can be allowed, not ${host}` });
  } else if (!HOST_NAME.test(host))
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(host)} is not a host name (IPv6 is not supported)` });
});

const NetworkSchema = z.strictObject({
  /** Endpoints beyond the agent's arena; nothing else is reachable from the sandbox. */
  allow: z.array(NetworkEndpointSchema).max(32, 'at most 32 endpoints').default([]),
  /** A model agent's server (model.yaml's base_url) is reachable unless this is false. */
  model_server: z.boolean().optional(),
});

export const AgentManifestSchema = z
  .strictObject({
    id: AgentIdSchema,
    name: z.string().min(1),
    framework: FrameworkSchema,
    entrypoint: EntrypointSchema,
    runtime: z.strictObject({ type: z.enum(['process', 'container']) }).optional(),
    scenarios: z.array(notBlank).min(1, 'needs at least one scenario id').optional(),
    author: AuthorSchema.nullable().optional(),
    description: z.string().optional(),
    capabilities: z.array(notBlank).default([]),
    behaviors: z.array(BehaviorSchema).default([]),
    challenges: z.array(notBlank).optional(),
    protocol: AgentProtocolSchema.optional(),
    limits: LimitsSchema.optional(),
    lifecycle: AgentLifecycleSchema.optional(),
    /** Seats one persistent process plays at the same time (ClawArena agents: always 1). */
    max_concurrent_games: z.int().min(1).max(64).optional(),
    network: NetworkSchema.optional(),
    /** Names of host environment variables the user grants to this agent; nothing else of the host reaches it. */
    secrets: z.array(envName.refine((s) => !s.startsWith('ARENA_'), 'ARENA_* variables are reserved')).default([]),
  })
  .superRefine((m, ctx) => {
    // Absent protocol means a reference manifest, i.e. a governance agent with the reference's required fields.
    if ((m.protocol ?? 'governance') === 'governance') {
      if (m.runtime === undefined) ctx.addIssue({ code: 'custom', path: ['runtime'], message: 'is required for a governance agent' });
      if (m.scenarios === undefined) ctx.addIssue({ code: 'custom', path: ['scenarios'], message: 'is required for a governance agent' });
    }
    const behaviorDupes = duplicates(m.behaviors.map((b) => b.id));
    if (behaviorDupes.length > 0)
      ctx.addIssue({ code: 'custom', path: ['behaviors'], message: `duplicate behavior ids: ${behaviorDupes.join(', ')}` });
    const secretDupes = duplicates(m.secrets);
    if (secretDupes.length > 0) ctx.addIssue({ code: 'custom', path: ['secrets'], message: `duplicate names: ${secretDupes.join(', ')}` });
    if (m.max_concurrent_games !== undefined && m.lifecycle !== 'persistent')
      ctx.addIssue({ code: 'custom', path: ['max_concurrent_games'], message: 'needs lifecycle: persistent' });
    const both = m.secrets.filter((s) => Object.hasOwn(m.entrypoint.env, s));
    if (both.length > 0) ctx.addIssue({ code: 'custom', path: ['secrets'], message: `also set in entrypoint.env: ${both.join(', ')}` });
  })
  .transform((m) => ({
    ...m,
    protocol: m.protocol ?? ('governance' as const),
    scenarios: m.scenarios ?? [],
    challenges: m.challenges ?? [],
    author: m.author ?? null,
    lifecycle: m.lifecycle ?? ('per-game' as const),
    max_concurrent_games: m.max_concurrent_games ?? 1,
    network: m.network ?? { allow: [] },
  }));

export type AgentManifest = z.infer<typeof AgentManifestSchema>;
export type AgentManifestInput = z.input<typeof AgentManifestSchema>;
