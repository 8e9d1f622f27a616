// Number extraction shared by challenges: the reference reads digits with /\d+/, so a minus sign is ignored.

export function allIntegers(content: string): number[] {
  return (content.match(/\d+/g) ?? []).map((digits) => Number.parseInt(digits, 10));
}

export function firstInteger(content: string): number | undefined {
  const match = /\d+/.exec(content);
  return match ? Number.parseInt(match[0], 10) : undefined;
}

/** Render a set the way the reference does: values sorted as strings, `{a, b, c}`. */
export function formatSet(values: Iterable<number>): string {
  return `{${[...values].map(String).sort().join(', ')}}`;
}
