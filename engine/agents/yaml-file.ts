// Reads a YAML file that must hold a mapping, and the error of a definition file that cannot be used.
import fs from 'node:fs';
import YAML from 'yaml';

/**
 * YAML 1.2 core schema. The reference uses PyYAML (YAML 1.1), which also reads `yes`/`no`/`on`/`off` as booleans; those
 * could never validate as the string fields they would land in, so the 1.2 reading accepts every file the reference
 * accepts (the `yaml` package's own 1.1 mode would not: it also turns `y`/`n` into booleans).
 */
export function readYamlMapping(file: string): { value: Record<string, unknown> } | { problem: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'file not found' : `cannot read: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (error) {
    return { problem: `invalid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'must contain a YAML mapping' };
  return { value: value as Record<string, unknown> };
}

/** A definition file (agent manifest, scenario, trial) that cannot be used: every problem, one line each. */
export class DefinitionFileError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`${file}: ${problems.length === 1 ? problems[0] : `\n  ${problems.join('\n  ')}`}`);
  }
}
