// Wall-clock instants (ISO 8601, e.g. a turn deadline or an event's time shown in a prompt) cannot come out the same
// in another run: replay comparisons and model-cache keys read each one as "<time>".
const INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;

export function blankInstants(text: string): string {
  return text.replace(INSTANT, '<time>');
}
