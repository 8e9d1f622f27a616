// One fixed-width UTC format for every timestamp on the wire: the watcher compares restart stamps as strings and
// parses deadlines with Python's fromisoformat (after swapping Z for +00:00).
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoUtcOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : isoUtc(ms);
}
