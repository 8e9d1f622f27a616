// A control group per seat, where this engine may create one: every process and thread of the seat is counted in its
// own `pids.max` and its memory (its /tmp and workspace tmpfs included) in its own memory limit, so one seat cannot use
// up what the next one needs. cgroup v2 needs a writable cgroup whose children get the pids and memory controllers
// (root, or a delegated cgroup the engine runs alone in); cgroup v1 needs writable pids and memory hierarchies (root).
// Probed once per engine.
import fs from 'node:fs';
import path from 'node:path';

export type CgroupKind = 'cgroup-v2' | 'cgroup-v1';

interface Hierarchy {
  /** The folder seat cgroups are created in. */
  parent: string;
  /** Limit file name → how the value is written. */
  limits: { pids?: string; memory?: string; swap?: string };
}

export interface CgroupSupport {
  kind: CgroupKind;
  hierarchies: Hierarchy[];
}

export interface SeatCgroup {
  kind: CgroupKind;
  /** The seat's folders (one per hierarchy), each joined by writing to its cgroup.procs before the sandbox starts. */
  dirs: string[];
}

const SEAT_PREFIX = 'arena-seat-';
/** The leaf a delegated cgroup v2 engine moves itself into, so that its own cgroup may hand controllers down. */
const ENGINE_LEAF_PREFIX = 'arena-engine-';
let probed: { support: CgroupSupport | null; why: string } | undefined;
let counter = 0;

/** What this engine can use, with the reason when nothing (for the isolation record and the docs' fallback). */
export function cgroupSupport(): { support: CgroupSupport | null; why: string } {
  probed ??= probe();
  return probed;
}

/** Tests force the fallback with null. */
export function setCgroupSupportForTests(value: { support: CgroupSupport | null; why: string } | undefined): void {
  probed = value;
}

/** Creates the seat's cgroup with its limits; null when the hierarchy refuses (the launch falls back, recorded). */
export function createSeatCgroup(support: CgroupSupport, limits: { processes: number; memoryBytes: number }): SeatCgroup | null {
  const name = `${SEAT_PREFIX}${process.pid}-${++counter}`;
  const dirs: string[] = [];
  try {
    for (const h of support.hierarchies) {
      const dir = path.join(h.parent, name);
      fs.mkdirSync(dir);
      dirs.push(dir);
      if (h.limits.pids) fs.writeFileSync(path.join(dir, h.limits.pids), String(limits.processes));
      if (h.limits.memory) fs.writeFileSync(path.join(dir, h.limits.memory), String(limits.memoryBytes));
      // No swap to spill into past the limit (v1 memsw must be at least the limit; absent without swap accounting).
      if (h.limits.swap)
        writeIfPresent(path.join(dir, h.limits.swap), h.limits.swap.startsWith('memory.memsw') ? String(limits.memoryBytes) : '0');
    }
    return { kind: support.kind, dirs };
  } catch {
    removeDirs(dirs);
    return null;
  }
}

/** The prefix that moves the launch into the seat's cgroup, then runs the rest: before anything of the agent starts. */
export function joinPrefix(shell: string, cgroup: SeatCgroup): string[] {
  const script = 'for d in "$@"; do [ "$d" = -- ] && break; echo 0 > "$d/cgroup.procs" || exit 125; shift; done; shift; exec "$@"';
  return [shell, '-c', script, 'arena-seat', ...cgroup.dirs, '--'];
}

/**
 * Removes the seat's cgroup once its processes are gone; the kernel may still be reaping the last of them, so an
 * EBUSY is retried for a while.
 */
export async function removeSeatCgroup(cgroup: SeatCgroup): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const left = removeDirs(cgroup.dirs);
    if (left.length === 0) return;
    cgroup = { ...cgroup, dirs: left };
    await new Promise((resolve) => setTimeout(resolve, 25 * Math.min(attempt + 1, 8)));
  }
}

function removeDirs(dirs: string[]): string[] {
  const left: string[] = [];
  for (const dir of dirs) {
    try {
      fs.rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') left.push(dir);
    }
  }
  return left;
}

function writeIfPresent(file: string, value: string): void {
  try {
    fs.writeFileSync(file, value);
  } catch {
    // no such accounting here
  }
}

interface Mount {
  root: string;
  point: string;
  type: string;
  options: string[];
}

function probe(): { support: CgroupSupport | null; why: string } {
  if (process.platform !== 'linux') return { support: null, why: 'no cgroups on this OS' };
  let mounts: Mount[];
  let memberships: Map<string, string>;
  try {
    mounts = parseMountInfo(fs.readFileSync('/proc/self/mountinfo', 'utf8'));
    memberships = parseCgroupFile(fs.readFileSync('/proc/self/cgroup', 'utf8'));
  } catch {
    return { support: null, why: 'cgroups are not readable' };
  }
  const v2 = probeV2(mounts, memberships);
  if (v2) return { support: v2, why: '' };
  const v1 = probeV1(mounts, memberships);
  if (v1) return { support: v1, why: '' };
  return { support: null, why: 'no writable cgroup with the pids and memory controllers (not root, and none delegated)' };
}

/** cgroup v2: seats under this engine's own cgroup, once it hands pids and memory to its children. */
function probeV2(mounts: Mount[], memberships: Map<string, string>): CgroupSupport | null {
  const mount = mounts.find((m) => m.type === 'cgroup2');
  const own = memberships.get('');
  if (!mount || own === undefined) return null;
  const dir = cgroupDir(mount, own);
  if (dir === null || !writable(dir) || !delegateControllers(dir, ['pids', 'memory'])) return null;
  removeStaleSeats(dir);
  return { kind: 'cgroup-v2', hierarchies: [{ parent: dir, limits: { pids: 'pids.max', memory: 'memory.max', swap: 'memory.swap.max' } }] };
}

/**
 * Makes the cgroup `dir` (this engine's) hand `controllers` to its children; false when it cannot. Only controllers
 * listed in its `cgroup.controllers` can be enabled, and a cgroup other than the root may enable a domain controller
 * (memory) in `cgroup.subtree_control` only while no process is in it (cgroup-v2 "no internal process" rule, EBUSY
 * otherwise): so in a delegated cgroup the engine first moves itself into a leaf of its own (`arena-engine-<pid>`),
 * and back when others' processes are still there.
 */
export function delegateControllers(dir: string, controllers: readonly string[]): boolean {
  const lists = (file: string) => {
    const words = readWords(path.join(dir, file));
    return controllers.every((c) => words.has(c));
  };
  if (lists('cgroup.subtree_control')) return true;
  if (!lists('cgroup.controllers')) return false;
  const enable = (): boolean => {
    try {
      fs.writeFileSync(path.join(dir, 'cgroup.subtree_control'), controllers.map((c) => `+${c}`).join(' '));
      return true;
    } catch {
      return false;
    }
  };
  if (enable()) return true;
  const leaf = path.join(dir, `${ENGINE_LEAF_PREFIX}${process.pid}`);
  try {
    if (!fs.existsSync(leaf)) fs.mkdirSync(leaf);
    fs.writeFileSync(path.join(leaf, 'cgroup.procs'), String(process.pid));
  } catch {
    removeDirs([leaf]);
    return false;
  }
  if (enable()) return true;
  try {
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
  } catch {
    // stays in its leaf: still in the same delegated cgroup for every limit above it
  }
  removeDirs([leaf]);
  return false;
}

/** cgroup v1: a seat folder in both the pids and the memory hierarchy, under this engine's own cgroup in each. */
function probeV1(mounts: Mount[], memberships: Map<string, string>): CgroupSupport | null {
  const hierarchies: Hierarchy[] = [];
  for (const controller of ['pids', 'memory'] as const) {
    const mount = mounts.find((m) => m.type === 'cgroup' && m.options.includes(controller));
    const own = [...memberships].find(([controllers]) => controllers.split(',').includes(controller))?.[1];
    if (!mount || own === undefined) return null;
    const dir = cgroupDir(mount, own);
    if (dir === null || !writable(dir)) return null;
    removeStaleSeats(dir);
    hierarchies.push({
      parent: dir,
      limits: controller === 'pids' ? { pids: 'pids.max' } : { memory: 'memory.limit_in_bytes', swap: 'memory.memsw.limit_in_bytes' },
    });
  }
  return { kind: 'cgroup-v1', hierarchies };
}

/** The folder of a cgroup path in a mount whose root may be a sub-cgroup (a cgroup namespace); null when outside it. */
function cgroupDir(mount: Mount, cgroupPath: string): string | null {
  if (mount.root === '/') return path.join(mount.point, cgroupPath);
  if (cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`))
    return path.join(mount.point, cgroupPath.slice(mount.root.length));
  return null;
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readWords(file: string): Set<string> {
  try {
    return new Set(fs.readFileSync(file, 'utf8').split(/\s+/).filter(Boolean));
  } catch {
    return new Set();
  }
}

/** Seat cgroups (and v2 engine leaves) of engines that are gone (killed before their clean-up); a running engine's stay. */
function removeStaleSeats(parent: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^(?:${SEAT_PREFIX}(\\d+)-|${ENGINE_LEAF_PREFIX}(\\d+)$)`).exec(name)?.slice(1).find(Boolean));
    if (!(pid > 0) || pid === process.pid || fs.existsSync(`/proc/${pid}`)) continue;
    removeDirs([path.join(parent, name)]);
  }
}

/** `/proc/self/mountinfo` lines: "id parent major:minor root mount-point options … - type source super-options". */
export function parseMountInfo(text: string): Mount[] {
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!left || !right) continue;
    const fields = left.split(' ');
    const [type, , superOptions] = right.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    mounts.push({
      root: unescapeOctal(fields[3] ?? '/'),
      point: unescapeOctal(fields[4] ?? ''),
      type,
      options: (superOptions ?? '').split(','),
    });
  }
  return mounts;
}

/** `/proc/self/cgroup` lines "id:controllers:path" → controllers ('' for v2) → path. */
export function parseCgroupFile(text: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match) map.set(match[1] as string, match[2] as string);
  }
  return map;
}

function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}
