// The model must answer one JSON object. The only slack given is a single ```json fence around it, which small local
// models add even when told not to; prose around the object is a parse error the model gets to rethink.
import { z } from 'zod';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const FENCED = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/;

export function extractJsonObject(text: string): Parsed<Record<string, unknown>> {
  let body = text.trim();
  const fenced = FENCED.exec(body);
  if (fenced) body = (fenced[1] ?? '').trim();
  if (body === '') return { ok: false, error: 'the answer was empty; reply with one JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return { ok: false, error: `the answer is not valid JSON (${(error as Error).message}); reply with one JSON object and nothing else` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'the answer must be a JSON object, not an array or a plain value' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** JSON object, then schema: the first failure is the error the model sees on rethink. */
export function parseAnswer<S extends z.ZodType>(text: string, schema: S): Parsed<z.infer<S>> {
  const json = extractJsonObject(text);
  if (!json.ok) return json;
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return { ok: false, error: `the JSON object does not match the expected shape: ${z.prettifyError(parsed.error)}` };
  return { ok: true, value: parsed.data };
}
