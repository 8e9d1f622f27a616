// The optional "options" box of the create form: empty means the challenge's defaults.

export type ParsedOptions = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string };

export function parseOptionsText(text: string): ParsedOptions {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Options must be JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, message: 'Options must be a JSON object, e.g. {"setSize": 8}' };
  return { ok: true, value: value as Record<string, unknown> };
}
