// Runs a Node script as a real child process and collects its output; a run past `timeoutMs` is killed, so a stuck
// agent or CLI fails the test instead of hanging it.
import { spawn } from 'node:child_process';

export interface NodeExit {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function runNode(argv: string[], options: { cwd?: string; env: Record<string, string>; timeoutMs: number }): Promise<NodeExit> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
