// A small flag parser: `--name value`, `--name=value` and boolean `--flag`; unknown flags are errors, not ignored.
export class UsageError extends Error {
  override name = 'UsageError';
}

export interface FlagSpec {
  [name: string]: 'string' | 'boolean';
}

export function parseFlags(argv: readonly string[], spec: FlagSpec): { flags: Record<string, string | boolean>; positionals: string[] } {
  const flags: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = spec[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new UsageError(`--${name} needs a value`);
    flags[name] = value;
  }
  return { flags, positionals };
}

/** Every value of a repeatable `--name VALUE` / `--name=VALUE` option, and the arguments without it. */
export function takeRepeated(argv: readonly string[], name: string): { values: string[]; rest: string[] } {
  const values: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === `--${name}`) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      values.push(value);
    } else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
    else rest.push(arg);
  }
  return { values, rest };
}

export function parsePort(value: string | boolean | undefined): number {
  if (value === undefined) return 0;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got ${String(value)}`);
  return n;
}

export function parseMinutes(name: string, value: string | boolean | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a number of minutes >= 0, got ${String(value)}`);
  return n * 60_000;
}
