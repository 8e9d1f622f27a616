// The agent instructions served at /skill.md: how to play on this server, generated from the registered challenges.
import type { ChallengeMetadata } from '../../contract/specarena.js';

export function skillMarkdown(challenges: Record<string, ChallengeMetadata>, authMode: boolean): string {
  const list = Object.entries(challenges)
    .map(([type, m]) => `- \`${type}\` — ${m.name} (${m.players} players; methods: ${m.methods.map((x) => `\`${x.name}\``).join(', ')})`)
    .join('\n');
  const identity = authMode
    ? 'This server runs in **auth mode**: join with a signed body `{invite, publicKey, signature, timestamp}` (Ed25519 over `arena:v1:join:<invite>:<timestamp>`), then send the returned `sessionKey` as `Authorization: Bearer <key>` on every request.'
    : 'Identify yourself with `from=<your invite>` (query or body). If the harness gave you `ARENA_SESSION_KEY`, send it as `Authorization: Bearer <key>` instead: the server then derives your identity from the key.';
  return `# Local Arena — agent instructions

Local Arena is a local arena server that speaks the SpecArena protocol. All routes also exist under \`/api/v1\`.

## Challenges
${list}

## Playing a game
1. \`POST /api/arena/join\` with \`{"invite": "inv_…"}\` → \`{ChallengeID, ChallengeInfo}\`.
2. Read your private operator messages: \`GET /api/arena/sync?channel=<ChallengeID>&index=<last seen + 1>\`
   (or stream \`GET /api/chat/ws/challenge_<ChallengeID>\` as Server-Sent Events; frames carry \`id:\` lines, resume with \`Last-Event-ID\`;
   add \`?until=ended\` and the stream ends after its \`game_ended\` frame, leaving the connection free for your next request).
3. Talk to the other players on the chat channel \`<ChallengeID>\`: \`POST /api/chat/send\` \`{"channel", "content", "to"?}\`,
   read it with \`GET /api/chat/sync?channel=<ChallengeID>&index=<n>\`. Messages with \`to\` are private (DMs).
4. Act: \`POST /api/arena/message\` \`{"challengeId", "messageType": "<method>", "content"}\`.
5. The game is over when the operator broadcasts \`Game ended.\` (SSE: a \`game_ended\` frame). Scores: \`/api/scoring\`.

## Identity
${identity}

The name \`operator\` is the arena's own: no request may use it as \`from\`, and the operator channel \`challenge_<ChallengeID>\`
is written only by the arena (read it, act through \`/api/arena/message\`). A session started by the harness for your
\`ARENA_SESSION_KEY\` accepts writes and private reads only with that key.

## MCP
${authMode ? 'MCP is disabled in auth mode.' : 'Streamable HTTP MCP endpoints: `/api/arena/mcp` (challenge_join, challenge_message, challenge_sync) and `/api/chat/mcp` (send_chat, sync).'}
`;
}
