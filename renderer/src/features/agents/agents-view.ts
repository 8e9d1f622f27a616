// Grouping the catalog by folder for display, and checking a folder path before it is sent. Pure.
import type { AgentCatalogResponse, AgentFolder, CatalogAgent } from '../../../../engine/contract/agent-catalog.js';

export interface FolderGroup {
  folder: AgentFolder;
  agents: CatalogAgent[];
}

/** Folders in catalog order (built-in first as the engine lists them); agents sorted, invalid ones after valid ones. */
export function groupByFolder(catalog: AgentCatalogResponse, first: string | null = null): FolderGroup[] {
  const byFolder = new Map<string, CatalogAgent[]>();
  for (const agent of catalog.agents) byFolder.set(agent.folder_id, [...(byFolder.get(agent.folder_id) ?? []), agent]);
  // The folder just added goes to the top, where the form that added it is.
  const folders = first === null ? catalog.folders : [...catalog.folders].sort((a, b) => Number(b.id === first) - Number(a.id === first));
  return folders.map((folder) => ({
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

/** The folder an add answered with: the one at that path, else the most recently added. */
export function addedFolderId(catalog: AgentCatalogResponse, path: string): string | null {
  const p = path.trim().replace(/[\\/]+$/, '');
  const exact = catalog.folders.find((f) => !f.builtin && f.path.replace(/[\\/]+$/, '') === p);
  if (exact) return exact.id;
  const added = catalog.folders.filter((f) => !f.builtin && f.added_at !== null);
  added.sort((a, b) => (b.added_at ?? 0) - (a.added_at ?? 0));
  return added[0]?.id ?? null;
}
