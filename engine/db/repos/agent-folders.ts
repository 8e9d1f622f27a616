// User-added agent folders of the Agents page.
import type Database from 'better-sqlite3';

export interface StoredAgentFolder {
  id: number;
  path: string;
  addedAt: number;
  /** Its agents run without the OS sandbox. */
  trusted: boolean;
}

interface FolderRow {
  id: number;
  path: string;
  added_at: number;
  trusted: number;
}

const folderOf = (row: FolderRow): StoredAgentFolder => ({ id: row.id, path: row.path, addedAt: row.added_at, trusted: row.trusted === 1 });

export function createAgentFoldersRepo(db: Database.Database) {
  const all = db.prepare('SELECT id, path, added_at, trusted FROM agent_folders ORDER BY id');
  const byPath = db.prepare('SELECT id, path, added_at, trusted FROM agent_folders WHERE path = ?');
  const trust = db.prepare('UPDATE agent_folders SET trusted = ? WHERE id = ?');
  const insert = db.prepare('INSERT INTO agent_folders (path, added_at) VALUES (?, ?) ON CONFLICT (path) DO NOTHING');
  const remove = db.prepare('DELETE FROM agent_folders WHERE id = ?');
  return {
    list(): StoredAgentFolder[] {
      return (all.all() as FolderRow[]).map(folderOf);
    },
    /** The new folder, or null when the path is already stored. */
    add(path: string, now: number): StoredAgentFolder | null {
      if (insert.run(path, now).changes === 0) return null;
      return folderOf(byPath.get(path) as FolderRow);
    },
    remove(id: number): boolean {
      return remove.run(id).changes > 0;
    },
    /** False when there is no such folder. */
    setTrusted(id: number, trusted: boolean): boolean {
      return trust.run(trusted ? 1 : 0, id).changes > 0;
    },
  };
}

export type AgentFoldersRepo = ReturnType<typeof createAgentFoldersRepo>;
