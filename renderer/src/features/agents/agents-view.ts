// Grouping the catalog by folder for display, and checking a folder path before it is sent. Pure.
import type { AgentCatalogResponse, AgentFolder, CatalogAgent } from '../../../../engine/contract/agent-catalog.js';

export interface FolderGroup {
  folder: AgentFolder;
  agents: CatalogAgent[];
}

/** Folders in catalog order (built-in first as the engine lists them); agents sorted, invalid ones after valid ones. */
export function groupByFolder(catalog: AgentCatalogResponse): FolderGroup[] {
  const byFolder = new Map<string, CatalogAgent[]>();
  for (const agent of catalog.agents) byFolder.set(agent.folder_id, [...(byFolder.get(agent.folder_id) ?? []), agent]);
  return catalog.folders.map((folder) => ({
    folder,
    agents: (byFolder.get(folder.id) ?? []).sort((a, b) => Number(b.ok) - Number(a.ok) || (a.id ?? a.dir).localeCompare(b.id ?? b.dir)),
  }));
}

/** Absolute on POSIX (/…, ~ is not expanded by the engine) or Windows (C:\…, \\server\share). */
export function folderPathProblem(path: string): string | null {
  const p = path.trim();
  if (p === '') return 'Enter the folder path.';
  if (p.startsWith('~')) return 'Write the path out in full: the engine does not expand ~.';
  if (!(p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\')))
    return 'Use an absolute path (it starts with / or a drive letter).';
  return null;
}
