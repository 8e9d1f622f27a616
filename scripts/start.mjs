// `npm start`: the desktop app when Electron's binary is installed, otherwise the same UI in the default browser.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const hasElectron = fs.existsSync(path.join(electronDir, 'path.txt'));
const [command, args] = hasElectron
  ? [process.execPath, [path.join(electronDir, 'cli.js'), '.', ...process.argv.slice(2)]]
  : [process.execPath, [path.join(root, 'bin', 'arena.js'), 'serve', '--open', ...process.argv.slice(2)]];
if (!hasElectron) process.stderr.write('Electron binary not installed: serving the UI to your browser instead (arena serve --open).\n');
const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
