// IPC registration: every channel from the contract, zod-validated both ways and answered only for app://arena/ frames.
import {
  APP_ORIGIN,
  type ChannelInput,
  type ChannelKey,
  type ChannelOutput,
  channels,
  IpcErrorCode,
  type IpcResult,
} from '../engine/contract/channels.js';

/** Structural subset of Electron's IpcMainInvokeEvent; tests pass plain objects. */
export interface InvokeEventLike {
  senderFrame?: { url: string } | null;
}

/** Structural subset of Electron's ipcMain, so registration runs (and is tested) in plain Node. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type IpcHandlers = {
  [K in ChannelKey]: (input: ChannelInput<K>) => ChannelOutput<K> | Promise<ChannelOutput<K>>;
};

/** Only documents loaded from our own protocol may call; a navigated-away or injected frame may not. */
export function isTrustedSender(event: InvokeEventLike): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && url.startsWith(`${APP_ORIGIN}/`);
}

const failure = (code: string, message: string): IpcResult => ({ ok: false, error: { code, message } });

export function createIpcListener<K extends ChannelKey>(key: K, handler: IpcHandlers[K]) {
  const channel = channels[key];
  return async (event: InvokeEventLike, ...args: unknown[]): Promise<IpcResult> => {
    if (!isTrustedSender(event))
      return failure(IpcErrorCode.ForbiddenSender, `${channel.name} is only available to the Local Arena window`);
    if (args.length > 1) return failure(IpcErrorCode.InvalidInput, `${channel.name} takes at most one argument`);
    const input = channel.input.safeParse(args[0]);
    if (!input.success) return failure(IpcErrorCode.InvalidInput, `${channel.name}: ${input.error.issues[0]?.message ?? 'invalid input'}`);
    let value: unknown;
    try {
      value = await (handler as (input: unknown) => unknown)(input.data);
    } catch (error) {
      // Only the message crosses: stacks and paths of main stay in main.
      return failure(IpcErrorCode.HandlerFailed, error instanceof Error ? error.message : String(error));
    }
    const output = channel.output.safeParse(value);
    if (!output.success) return failure(IpcErrorCode.InvalidOutput, `${channel.name} produced an invalid reply`);
    return { ok: true, value: output.data };
  };
}

/** Registers one handler per contract channel; returns a function that removes them again. */
export function registerIpc(ipcMain: IpcMainLike, handlers: IpcHandlers): () => void {
  const keys = Object.keys(channels) as ChannelKey[];
  for (const key of keys) {
    ipcMain.handle(channels[key].name, createIpcListener(key, handlers[key] as IpcHandlers[typeof key]));
  }
  return () => {
    for (const key of keys) ipcMain.removeHandler(channels[key].name);
  };
}
