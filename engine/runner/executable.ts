// Finds a program the way execvp would (PATH search, or a path relative to the working directory), so a missing
// program is reported as a launch failure instead of a wrapper's exit code.
import fs from 'node:fs';
import path from 'node:path';

export function findExecutable(
  program: string,
  pathEnv: string | undefined,
  cwd: string,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const candidates = platform === 'win32' ? windowsNames(program) : [program];
  if (program.includes('/') || (platform === 'win32' && program.includes('\\'))) {
    return candidates.map((c) => path.resolve(cwd, c)).find(isExecutableFile) ?? null;
  }
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const found = candidates.map((c) => path.join(dir, c)).find(isExecutableFile);
    if (found) return found;
  }
  return null;
}

function windowsNames(program: string): string[] {
  if (path.extname(program) !== '') return [program];
  return [program, ...['.exe', '.cmd', '.bat', '.com'].map((ext) => program + ext)];
}

export function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
