// Shareable exports never carry a path of this machine (issue 15): every occurrence of a known local folder (an
// agent's folder, the definition's folder, the data folder, the home and temp folders) in an export's text becomes a
// placeholder, most specific folder first. Paths an agent prints into its stderr or chat are caught the same way.
import os from 'node:os';
import path from 'node:path';

export interface LocalRoot {
  dir: string;
  label: string;
}

/** The folders a run knows about, most specific first once sorted by the redactor. */
export function localRoots(input: { agents: ReadonlyArray<{ id: string; dir: string }>; specDir: string; dataDir: string }): LocalRoot[] {
  return [
    ...input.agents.map((a) => ({ dir: a.dir, label: `<agent:${a.id}>` })),
    { dir: input.specDir, label: '<definition>' },
    { dir: input.dataDir, label: '<data-dir>' },
    { dir: os.tmpdir(), label: '<tmp>' },
    { dir: os.homedir(), label: '~' },
  ];
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A function replacing every listed folder (and its JSON-escaped spelling) by its label; the filesystem root is never a root. */
export function pathRedactor(roots: readonly LocalRoot[]): (text: string) => string {
  const usable = roots
    .map((r) => ({ dir: path.resolve(r.dir).replace(/[\\/]+$/, ''), label: r.label }))
    .filter((r) => r.dir !== '' && r.dir !== path.parse(r.dir).root)
    .sort((a, b) => b.dir.length - a.dir.length);
  if (usable.length === 0) return (text) => text;
  const spellings = usable.flatMap((r) => {
    const json = JSON.stringify(r.dir).slice(1, -1);
    return json === r.dir
      ? [{ from: r.dir, to: r.label }]
      : [
          { from: json, to: r.label },
          { from: r.dir, to: r.label },
        ];
  });
  // A folder only counts where it ends: a folder "…/ann" must not eat the front of "…/anna".
  const pattern = new RegExp(`(${spellings.map((s) => escapeRegExp(s.from)).join('|')})(?![A-Za-z0-9._-])`, 'g');
  const labels = new Map(spellings.map((s) => [s.from, s.to]));
  return (text) => text.replace(pattern, (match) => labels.get(match) ?? match);
}

/** System folders whose names say nothing about the person or the machine's layout. */
const SYSTEM_DIRS = /^(\/usr|\/bin|\/sbin|\/lib|\/opt|\/snap|\/nix|\/etc|\/System|\/Library|\/Applications)(\/|$)/;

/**
 * A search path (PATH) as an export may carry it: known local folders by their labels, system folders as they are,
 * and any other absolute folder shortened to its last two segments ("…/node_modules/.bin"), as a manifest path outside
 * the definition's folder is. The order and the number of entries stay.
 */
export function portableSearchPath(value: string, redact: (text: string) => string): string {
  const separator = path.delimiter;
  return value
    .split(separator)
    .map((entry) => {
      const labelled = redact(entry);
      if (labelled !== entry || !path.isAbsolute(entry) || SYSTEM_DIRS.test(entry)) return labelled;
      const parts = entry.split(/[\\/]+/).filter(Boolean);
      return parts.length <= 2 ? entry : `…/${parts.slice(-2).join('/')}`;
    })
    .join(separator);
}
