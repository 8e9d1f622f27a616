// Prices in USD per million tokens, from a YAML/JSON file the user edits. Models missing from the table cost 0 and
// are marked unpriced, which is right for local servers and visible in reports for hosted ones.
import YAML from 'yaml';
import { z } from 'zod';
import { readDefinitionText } from '../runtime/bounded-read.js';
import { ConfigError } from './config.js';

const PriceSchema = z.strictObject({
  input_per_mtok: z.number().min(0),
  output_per_mtok: z.number().min(0),
});
export type Price = z.infer<typeof PriceSchema>;

/** Keys are `provider:model` (exact) or a bare model name (any provider). */
export const PriceTableSchema = z.strictObject({ models: z.record(z.string().min(1), PriceSchema).default({}) });
export type PriceTable = z.infer<typeof PriceTableSchema>;

export const EMPTY_PRICE_TABLE: PriceTable = { models: {} };

export function loadPriceTable(file: string): PriceTable {
  let raw: unknown;
  try {
    raw = YAML.parse(readDefinitionText(file));
  } catch (error) {
    throw new ConfigError(`price table ${file}: ${(error as Error).message}`);
  }
  const parsed = PriceTableSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new ConfigError(`price table ${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function priceOf(table: PriceTable, provider: string, model: string): Price | undefined {
  return table.models[`${provider}:${model}`] ?? table.models[model];
}

export function costOf(table: PriceTable, provider: string, model: string, promptTokens: number, completionTokens: number) {
  const price = priceOf(table, provider, model);
  if (!price) return { cost_usd: 0, priced: false };
  // Rounded to a micro-dollar so sums in reports do not show float noise.
  const cost = (promptTokens * price.input_per_mtok + completionTokens * price.output_per_mtok) / 1_000_000;
  return { cost_usd: Math.round(cost * 1e6) / 1e6, priced: true };
}
