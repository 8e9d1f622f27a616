import type { ArenaApi } from '../../engine/contract/channels.js';

declare global {
  interface Window {
    /** Present only inside the desktop shell (exposed by the preload). */
    arena?: ArenaApi;
  }
}
