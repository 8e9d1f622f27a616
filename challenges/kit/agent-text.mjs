// Reading the operators' messages the way the operators write them.

/** All integers in a text, read like the operators read them (digits only, so a minus sign is ignored). */
export function integersIn(text) {
  return (String(text).match(/\d+/g) ?? []).map((d) => Number.parseInt(d, 10));
}

/** `{scores: [{security, utility}, ...]}` from the "Game ended." broadcast, or null for any other message. */
export function parseGameEnd(content) {
  if (!content.startsWith('Game ended.')) return null;
  const scores = [];
  for (const match of content.matchAll(/^- Player (\d+): (\{.*\})$/gm)) {
    try {
      scores[Number(match[1]) - 1] = JSON.parse(match[2]);
    } catch {
      // A malformed line leaves a hole; the end itself is what matters.
    }
  }
  return { scores };
}
