// The warm-agent channel: GET /api/arena/next-seat long-polls for a persistent agent's next seat (contract:
// engine/contract/warm-agent.ts). Only the agent key a warm process was started with is accepted.
import type { FastifyInstance } from 'fastify';
import { NEXT_SEAT_MAX_WAIT_SECONDS, NEXT_SEAT_PATH, NextSeatQuerySchema } from '../../contract/warm-agent.js';
import { ArenaError } from '../../protocols/specarena/arena-error.js';
import type { WarmDesk } from '../../tournaments/warm/warm-desk.js';

export function registerWarmRoutes(app: FastifyInstance, desk: WarmDesk): void {
  app.get(NEXT_SEAT_PATH, async (req, reply) => {
    const auth = req.headers.authorization;
    const key = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    const poll = key ? desk.lookup(key) : null;
    if (!poll) throw new ArenaError(401, 'a live agent key is required (Authorization: Bearer <ARENA_AGENT_KEY>)');
    const query = NextSeatQuerySchema.safeParse(req.query ?? {});
    if (!query.success) throw new ArenaError(400, `wait must be a number of seconds from 0 to ${NEXT_SEAT_MAX_WAIT_SECONDS}`);
    // A client that hangs up stops waiting: a seat is never handed to a poll nobody reads. (A response that was sent
    // closes too; aborting then would only build an AbortError nobody reads, on every poll.)
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    const answer = await poll((query.data.wait ?? NEXT_SEAT_MAX_WAIT_SECONDS) * 1000, gone.signal);
    if (answer.status === 204) return reply.code(204).send();
    // A seat whose answer dies with the connection (sleep, a dropped proxy, the forwarder restarting) is not lost:
    // the agent asks again and gets the same seat.
    const undelivered = answer.undelivered;
    if (undelivered) reply.raw.once('close', () => (reply.raw.writableFinished ? undefined : undelivered()));
    if (reply.raw.destroyed) undelivered?.();
    return answer.body;
  });
}
