// Removes an agent's workspace after its run, whatever the agent did to it. An agent owns its workspace and can make
// folders in it unreadable (`chmod 000`): for an engine that is not root (or that runs agents as its own uid) a
// plain recursive removal then fails and the files stay on disk, game after game. The modes are given back first.
import fs from 'node:fs';
import path from 'node:path';

/** Resolves once `workspace` is gone (or cannot be removed: then with the error, never rejecting). */
export async function removeWorkspace(workspace: string): Promise<Error | null> {
  try {
    await fs.promises.rm(workspace, { recursive: true, force: true });
    return null;
  } catch {
    // An unreadable or unwritable folder inside: make every folder the engine owns searchable and writable again.
  }
  await unlock(workspace);
  try {
    await fs.promises.rm(workspace, { recursive: true, force: true });
    return null;
  } catch (error) {
    return error as Error;
  }
}

/** chmod u+rwx on every folder of the tree, never following a symlink (the agent has ended: nothing moves now). */
async function unlock(dir: string): Promise<void> {
  try {
    const stat = await fs.promises.lstat(dir);
    if (!stat.isDirectory()) return;
    await fs.promises.chmod(dir, (stat.mode & 0o7777) | 0o700);
  } catch {
    return;
  }
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) await unlock(path.join(dir, entry.name));
}
