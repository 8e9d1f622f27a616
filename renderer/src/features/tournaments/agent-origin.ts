// Where an imported definition's agent comes from, for the note beside it in the builder. A manifest that ships with the
// app, or lies in one of the user's agent folders, is named as such; only one found in neither is "from the imported
// definition". Each entry is looked up on its own, since one manifest may fill several seats (Diplomacy's seven).
import type { CatalogAgent } from '../../../../engine/contract/agent-catalog.js';
import { matchCatalogAgent } from './agent-paths.js';

/** Shipped folders' ids start so (engine/contract/agent-catalog.ts: `builtin:<name>`); user folders' are numbers. */
const SHIPPED_FOLDER_PREFIX = 'builtin:';

export type AgentOrigin = { kind: 'shipped' | 'folder'; agent: CatalogAgent } | { kind: 'definition' };

export function agentOrigin(manifest: string, catalog: readonly CatalogAgent[], baseDir: string): AgentOrigin {
  const found = matchCatalogAgent(
    manifest,
    catalog.map((c) => c.manifest_path),
    baseDir,
  );
  const agent = found === null ? undefined : catalog.find((c) => c.manifest_path === found);
  if (!agent) return { kind: 'definition' };
  return { kind: agent.folder_id.startsWith(SHIPPED_FOLDER_PREFIX) ? 'shipped' : 'folder', agent };
}

export function agentOriginNote(origin: AgentOrigin): string {
  if (origin.kind === 'shipped') return 'shipped with the app';
  if (origin.kind === 'folder') return 'in your agent folders';
  return 'from the imported definition; not in your agent folders';
}
