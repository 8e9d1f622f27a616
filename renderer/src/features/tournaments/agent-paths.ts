// Paths of agents in the builder: manifests compared however they were written, ids made unique, folders shown short.

/** Manifest paths compared across separators and `.`/`..` segments (imported definitions may be relative). */
export function resolveManifest(baseDir: string, manifest: string): string {
  const absolute = /^([A-Za-z]:[\\/]|[\\/])/.test(manifest);
  const joined = absolute ? manifest : `${baseDir.replace(/[\\/]+$/, '')}/${manifest}`;
  const parts: string[] = [];
  for (const part of joined.replace(/\\/g, '/').split('/')) {
    if (part === '.' || (part === '' && parts.length > 0)) continue;
    if (part === '..' && parts.length > 1) parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/**
 * The catalogue manifest an imported definition's entry means. An absolute path, or a relative one that resolves
 * against the base folder, matches exactly. A relative path is written relative to the definition file, whose folder a
 * browser never learns, so otherwise it matches the one catalogue manifest that ends with its path below the leading
 * `../` (or a report's `…/`) segments (`../challenges/psi/agents/x/agent.yaml` → `…/challenges/psi/agents/x/agent.yaml`).
 */
export function matchCatalogAgent(manifest: string, catalog: readonly string[], baseDir: string): string | null {
  const exact = resolveManifest(baseDir, manifest);
  const direct = catalog.find((c) => resolveManifest('', c) === exact);
  if (direct) return direct;
  if (/^([A-Za-z]:[\\/]|[\\/])/.test(manifest)) return null;
  const tail = manifest.replace(/\\/g, '/').replace(/^(…\/|\.\.?\/)+/, '');
  const file = /(^|\/)agent\.ya?ml$/.test(tail) ? tail : `${tail.replace(/\/+$/, '')}/agent.yaml`;
  const hits = catalog.filter((c) => `/${resolveManifest('', c)}`.endsWith(`/${file}`));
  return hits.length === 1 ? (hits[0] as string) : null;
}

/** A spec id for a newly ticked agent: the manifest's id, made unique among the agents already picked. */
export function uniqueAgentId(wanted: string, taken: readonly string[]): string {
  const base = wanted.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'agent';
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

/** A folder shown relative to the base folder when it lies inside it (shorter, and the same on every machine). */
export function displayPath(baseDir: string, dir: string): string {
  const base = resolveManifest('', baseDir).replace(/\/+$/, '');
  const target = resolveManifest('', dir);
  return target.startsWith(`${base}/`) ? target.slice(base.length + 1) : dir;
}
