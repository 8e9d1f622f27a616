// Reads a YAML file that must hold a mapping.
import fs from 'node:fs';
import YAML from 'yaml';

/** YAML 1.1, the dialect of the reference's PyYAML safe_load (`yes`/`no`/`on`/`off` are booleans there too). */
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
    value = YAML.parse(text, { version: '1.1' });
  } catch (error) {
    return { problem: `invalid YAML: ${(error as Error).message.split('\n')[0]}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'must contain a YAML mapping' };
  return { value: value as Record<string, unknown> };
}
