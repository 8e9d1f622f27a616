// Discovers challenge folders (challenges/<id>/challenge.json + operator) so adding a challenge is adding a folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { ChallengeModule } from '../../challenges/kit/operator-base.js';
import { type ChallengeMetadata, ChallengeMetadataSchema } from '../contract/specarena.js';
import type { PlayableEntry } from '../core/playables.js';

const ArenaSectionSchema = z
  .object({
    protocols: z.array(z.enum(['specarena', 'clawarena', 'governance'])).default(['specarena']),
    order: z.number().default(1000),
    defaultOptions: z.record(z.string(), z.unknown()).default({}),
  })
  .passthrough();

const ChallengeFileSchema = ChallengeMetadataSchema.extend({ arena: ArenaSectionSchema.optional() });

export interface RegisteredChallenge {
  id: string;
  /** SpecArena metadata only (the `arena` section is Local Arena's own). */
  metadata: ChallengeMetadata;
  order: number;
  module: ChallengeModule<{ players: number }, object>;
  /** Options from the `arena.defaultOptions` section, already validated by the challenge. */
  defaultOptions: Record<string, unknown>;
  /** Folder the challenge was loaded from (for content hashes in run manifests). */
  dir: string;
}

/** Challenges in registration order (what /api/metadata lists). */
export class ChallengeRegistry extends Map<string, RegisteredChallenge> {
  defaultOptions(type: string): Record<string, unknown> {
    return { ...(this.get(type)?.defaultOptions ?? {}) };
  }
}

export class ChallengeLoadError extends Error {
  override name = 'ChallengeLoadError';
}

/** The challenges folder next to this build: `<root>/challenges` from source, `<root>/dist/challenges` when built. */
export function defaultChallengesDir(): string {
  return fileURLToPath(new URL('../../challenges/', import.meta.url));
}

export async function loadChallenges(dir = defaultChallengesDir()): Promise<ChallengeRegistry> {
  const found: RegisteredChallenge[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(dir, entry.name);
    const metaFile = path.join(folder, 'challenge.json');
    if (!fs.existsSync(metaFile)) continue;
    const operatorFile = ['operator.js', 'operator.ts'].map((f) => path.join(folder, f)).find((f) => fs.existsSync(f));
    if (!operatorFile) throw new ChallengeLoadError(`challenge ${entry.name}: no operator.ts/operator.js next to challenge.json`);
    let parsed: z.infer<typeof ChallengeFileSchema>;
    try {
      parsed = ChallengeFileSchema.parse(JSON.parse(fs.readFileSync(metaFile, 'utf8')));
    } catch (error) {
      throw new ChallengeLoadError(`challenge ${entry.name}: invalid challenge.json: ${(error as Error).message}`);
    }
    const imported = (await import(pathToFileURL(operatorFile).href)) as { default?: RegisteredChallenge['module'] };
    const module = imported.default;
    if (!module || typeof module.createOperator !== 'function' || typeof module.createGameState !== 'function') {
      throw new ChallengeLoadError(`challenge ${entry.name}: operator module must default-export defineChallenge({...})`);
    }
    const { arena, ...metadata } = parsed;
    const defaults = module.optionsSchema.safeParse(arena?.defaultOptions ?? {});
    if (!defaults.success) throw new ChallengeLoadError(`challenge ${entry.name}: default options invalid: ${defaults.error.message}`);
    if (defaults.data.players !== metadata.players) {
      throw new ChallengeLoadError(
        `challenge ${entry.name}: metadata players (${metadata.players}) and options.players (${defaults.data.players}) disagree`,
      );
    }
    found.push({ id: entry.name, metadata, order: arena?.order ?? 1000, module, defaultOptions: arena?.defaultOptions ?? {}, dir: folder });
  }
  found.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  return new ChallengeRegistry(found.map((c) => [c.id, c]));
}

/** The challenges as playable entries, in registration order. */
export function specArenaPlayables(registry: ChallengeRegistry): PlayableEntry[] {
  return [...registry.values()].map((c) => ({
    id: c.id,
    protocol: 'specarena',
    name: c.metadata.name,
    description: c.metadata.description,
    seats: { min: c.metadata.players, max: c.metadata.players, default: c.metadata.players },
    defaultOptions: registry.defaultOptions(c.id),
    dir: c.dir,
    optionsProblem(options) {
      const parsed = c.module.optionsSchema.safeParse({ ...registry.defaultOptions(c.id), ...options });
      if (parsed.success) return null;
      return parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    },
  }));
}
