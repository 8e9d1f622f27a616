// IPC contract between the preload and main (`arena:<domain>.<verb>`), plus the engine utility-process handshake.
// Std code: zod only, so main, preload and renderer can all import it.
import { z } from 'zod';

/** The desktop shell's origin; main accepts IPC only from frames under `${APP_ORIGIN}/`. */
export const APP_ORIGIN = 'app://arena';
export const IPC_PREFIX = 'arena:';

/** Engines bind loopback only, so the connection the shell hands out must point there. */
export const EngineConnectionSchema = z.object({
  baseUrl: z.string().regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/, 'baseUrl must be http://127.0.0.1:<port>'),
  token: z.string().min(16),
});
export type EngineConnection = z.infer<typeof EngineConnectionSchema>;

/** Only web links leave the app; file:, javascript:, custom schemes and the like are refused. */
export const ExternalUrlSchema = z
  .string()
  .max(4096)
  .pipe(z.url({ protocol: /^https?$/, error: 'only http(s) URLs can be opened' }));

/** Exports from the UI: the renderer hands over the content; main asks where to save it (never a path from the page). */
export const SaveFileRequestSchema = z
  .object({
    suggestedName: z
      .string()
      .min(1)
      .max(255)
      .regex(/^[^/\\\0]+$/, 'a file name, not a path'),
    content: z.string().max(256 * 1024 * 1024),
    /** 'base64' for a binary file (an audit bundle): main writes the decoded bytes. Text is the default. */
    encoding: z.enum(['utf8', 'base64']).optional(),
    /** Offered as the dialog's file-type filter, e.g. {name: 'JSON Lines', extensions: ['jsonl']}. */
    filter: z
      .object({
        name: z.string().min(1).max(64),
        extensions: z
          .array(z.string().regex(/^[a-z0-9]{1,8}$/))
          .min(1)
          .max(4),
      })
      .strict(),
  })
  .strict();
export type SaveFileRequest = z.infer<typeof SaveFileRequestSchema>;
export const SaveFileResultSchema = z.object({ saved: z.boolean(), path: z.string().nullable() });
export type SaveFileResult = z.infer<typeof SaveFileResultSchema>;

/** API keys for model agents, by environment-variable name (what a manifest's `secrets:` lists). */
export const SecretNameSchema = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]{0,127}$/, 'an environment variable name such as OPENAI_API_KEY')
  .superRefine((name, ctx) => {
    const reason = reservedSecretNameReason(name);
    if (reason) ctx.addIssue({ code: 'custom', message: reason });
  });

/** Variables the engine's own process relies on (or that steer Node, Electron or the loader) cannot be stored as keys. */
const RESERVED_SECRET_NAMES = new Set(['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'TEMP', 'TMP']);
const RESERVED_SECRET_PREFIXES = ['ARENA_', 'LC_', 'NODE_', 'ELECTRON_', 'LD_', 'DYLD_'];

/** Why a name cannot hold an API key, or null when it can. Stored keys land in the engine's environment. */
export function reservedSecretNameReason(name: string): string | null {
  if (RESERVED_SECRET_NAMES.has(name)) return `${name} is a system variable, not an API key`;
  const prefix = RESERVED_SECRET_PREFIXES.find((p) => name.startsWith(p));
  if (prefix === 'ARENA_') return 'ARENA_* names are reserved for the runner';
  if (prefix) return `${prefix}* variables configure the runtime and cannot be stored as keys`;
  return null;
}
export const SecretSetRequestSchema = z
  .object({
    name: SecretNameSchema,
    value: z
      .string()
      .min(1)
      .max(16 * 1024),
  })
  .strict();
/** Names only: a stored value never travels back to the renderer. */
export const SecretListSchema = z.object({
  /** False when the OS offers no keychain-backed encryption (safeStorage unavailable): keys cannot be stored. */
  available: z.boolean(),
  names: z.array(z.string()),
});
export type SecretList = z.infer<typeof SecretListSchema>;

export interface ChannelDefinition<I extends z.ZodType, O extends z.ZodType> {
  name: `${typeof IPC_PREFIX}${string}`;
  input: I;
  output: O;
}

function defineChannel<I extends z.ZodType, O extends z.ZodType>(
  name: `arena:${string}.${string}`,
  input: I,
  output: O,
): ChannelDefinition<I, O> {
  return { name, input, output };
}

export const channels = {
  engineConnection: defineChannel('arena:engine.connection', z.undefined(), EngineConnectionSchema),
  shellOpenExternal: defineChannel('arena:shell.openExternal', z.object({ url: ExternalUrlSchema }).strict(), z.undefined()),
  shellRevealInFolder: defineChannel('arena:shell.revealInFolder', z.object({ path: z.string().min(1).max(4096) }).strict(), z.undefined()),
  appVersion: defineChannel('arena:app.version', z.undefined(), z.string()),
  shellSaveFile: defineChannel('arena:shell.saveFile', SaveFileRequestSchema, SaveFileResultSchema),
  shellRevealDataFolder: defineChannel('arena:shell.revealDataFolder', z.undefined(), z.undefined()),
  secretsList: defineChannel('arena:secrets.list', z.undefined(), SecretListSchema),
  secretsSet: defineChannel('arena:secrets.set', SecretSetRequestSchema, SecretListSchema),
  secretsDelete: defineChannel('arena:secrets.delete', z.object({ name: SecretNameSchema }).strict(), SecretListSchema),
} as const;

export type Channels = typeof channels;
export type ChannelKey = keyof Channels;
export type ChannelInput<K extends ChannelKey> = z.infer<Channels[K]['input']>;
export type ChannelOutput<K extends ChannelKey> = z.infer<Channels[K]['output']>;

/** Main answers every invoke with an envelope, so the preload can rethrow a clean message instead of Electron's wrapper text. */
export const IpcErrorCode = {
  ForbiddenSender: 'FORBIDDEN_SENDER',
  InvalidInput: 'INVALID_INPUT',
  InvalidOutput: 'INVALID_OUTPUT',
  HandlerFailed: 'HANDLER_FAILED',
} as const;
export type IpcErrorCode = (typeof IpcErrorCode)[keyof typeof IpcErrorCode];

export const IpcResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type IpcResult = z.infer<typeof IpcResultSchema>;

/** What the preload exposes as `window.arena`: named functions only, never a generic invoke. */
export interface ArenaApi {
  connection(): Promise<EngineConnection>;
  openExternal(url: string): Promise<void>;
  revealInFolder(path: string): Promise<void>;
  appVersion(): Promise<string>;
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  revealDataFolder(): Promise<void>;
  listSecrets(): Promise<SecretList>;
  setSecret(name: string, value: string): Promise<SecretList>;
  deleteSecret(name: string): Promise<SecretList>;
}

/** The allow-list, sorted; tests compare the exposed object's keys against it. */
export const ARENA_API_METHODS = [
  'appVersion',
  'connection',
  'deleteSecret',
  'listSecrets',
  'openExternal',
  'revealDataFolder',
  'revealInFolder',
  'saveFile',
  'setSecret',
] as const satisfies readonly (keyof ArenaApi)[];

// ---- engine utility process → main -----------------------------------------------------------

/** Posted once by engine/entry.ts when the HTTP listener is up (also printed as a JSON line under plain node). */
export const EngineReadyMessageSchema = z.object({
  type: z.literal('ready'),
  port: z.number().int().min(1).max(65535),
  token: z.string().min(16),
});
export type EngineReadyMessage = z.infer<typeof EngineReadyMessageSchema>;

/** Sent by main to ask the engine to close its database and exit. */
export const EngineShutdownMessageSchema = z.object({ type: z.literal('shutdown') });
export type EngineShutdownMessage = z.infer<typeof EngineShutdownMessageSchema>;

/**
 * Sent by main when the user changes the keychain-stored API keys: the engine updates its own environment, which is
 * where the runner reads a manifest's granted `secrets` from. The values at launch arrive in the fork environment.
 */
export const EngineSecretsMessageSchema = z
  .object({
    type: z.literal('secrets'),
    set: z.record(SecretNameSchema, z.string().min(1)),
    unset: z.array(SecretNameSchema),
  })
  .strict();
export type EngineSecretsMessage = z.infer<typeof EngineSecretsMessageSchema>;

/**
 * Names (comma-separated) of the keychain keys in the engine's fork environment, so the engine scrubs their values
 * from what it stores and shows from its first instruction on (an ARENA_* variable: never passed to agents).
 */
export const KEYCHAIN_NAMES_ENV = 'ARENA_KEYCHAIN_NAMES';

/**
 * The absolute path of the Node binary the packaged app ships, in the engine's fork environment: agents started as
 * `node …` and the app's launchers run on it (engine/runner/node-runtime.ts). An ARENA_* variable: never passed to
 * agents.
 */
export const AGENT_NODE_ENV = 'ARENA_AGENT_NODE';
