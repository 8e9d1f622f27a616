// Pure factory for `window.arena`: one named function per allow-listed channel, never a generic invoke.
import {
  type ArenaApi,
  type ChannelInput,
  type ChannelKey,
  type ChannelOutput,
  channels,
  IpcResultSchema,
} from '../engine/contract/channels.js';

/** The slice of ipcRenderer the preload needs; a fake stands in for it in tests. */
export type InvokeFn = (channel: string, ...args: unknown[]) => Promise<unknown>;

export class ArenaIpcError extends Error {
  override name = 'ArenaIpcError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function createArenaApi(invoke: InvokeFn): ArenaApi {
  async function call<K extends ChannelKey>(key: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
    const channel = channels[key];
    // Checked here too, so a bad argument fails in the renderer with a clear message before crossing the process boundary.
    const checked = channel.input.safeParse(input);
    if (!checked.success) throw new ArenaIpcError('INVALID_INPUT', checked.error.issues[0]?.message ?? 'invalid input');
    const raw = input === undefined ? await invoke(channel.name) : await invoke(channel.name, checked.data);
    const envelope = IpcResultSchema.safeParse(raw);
    if (!envelope.success) throw new ArenaIpcError('INVALID_OUTPUT', `unexpected reply on ${channel.name}`);
    if (!envelope.data.ok) throw new ArenaIpcError(envelope.data.error.code, envelope.data.error.message);
    const value = channel.output.safeParse(envelope.data.value);
    if (!value.success) throw new ArenaIpcError('INVALID_OUTPUT', `unexpected reply on ${channel.name}`);
    return value.data as ChannelOutput<K>;
  }

  // A plain object of arrow functions: contextBridge copies it, and nothing else (no prototype, no invoke) crosses.
  const api: ArenaApi = {
    appVersion: () => call('appVersion', undefined),
    connection: () => call('engineConnection', undefined),
    openExternal: async (url: string) => {
      await call('shellOpenExternal', { url });
    },
    revealInFolder: async (path: string) => {
      await call('shellRevealInFolder', { path });
    },
    saveFile: (request) => call('shellSaveFile', request),
    revealDataFolder: async () => {
      await call('shellRevealDataFolder', undefined);
    },
    listSecrets: () => call('secretsList', undefined),
    setSecret: (name: string, value: string) => call('secretsSet', { name, value }),
    deleteSecret: (name: string) => call('secretsDelete', { name }),
  };
  return api;
}
