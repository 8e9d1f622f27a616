// A stand-in for Electron's ipcMain, shared by the IPC registration and handler tests.
import { vi } from 'vitest';
import type { IpcResult } from '../../engine/contract/channels.js';
import type { InvokeEventLike } from '../../main/ipc.js';

type Listener = (event: InvokeEventLike, ...args: unknown[]) => unknown;

/** Electron's ipcMain as registerIpc sees it, plus invoke() to play the renderer's side. */
export function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  return {
    handlers,
    handle: vi.fn((channel: string, listener: Listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
    invoke(channel: string, event: InvokeEventLike, ...args: unknown[]): Promise<IpcResult> {
      const listener = handlers.get(channel);
      if (!listener) throw new Error(`no handler for ${channel}`);
      return Promise.resolve(listener(event, ...args)) as Promise<IpcResult>;
    },
  };
}
