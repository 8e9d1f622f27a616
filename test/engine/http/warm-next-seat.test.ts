// GET /api/arena/next-seat on a real Fastify app over 127.0.0.1 with the real warm desk: a client that hangs up
// stops the long-poll (so a seat is never handed to nobody), while a poll that was answered is not aborted after
// its reply (which would only build an AbortError per poll, on the warm game's hot path).
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWarmRoutes } from '../../../engine/http/routes/specarena-warm.js';
import { WarmDesk } from '../../../engine/tournaments/warm/warm-desk.js';

let app: FastifyInstance;
let url: string;
const desk = new WarmDesk();

beforeAll(async () => {
  app = Fastify({ forceCloseConnections: true });
  registerWarmRoutes(app, desk);
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
});

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('next-seat long-poll', () => {
  it('an answered poll is not aborted once its reply is sent', async () => {
    const signals: AbortSignal[] = [];
    const key = desk.open(async (_waitMs, signal) => {
      signals.push(signal);
      return { status: 200, body: { finished: true, reason: 'test' } };
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${url}/api/arena/next-seat?wait=5`, { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ finished: true, reason: 'test' });
      }
      // The response's close event has fired by now.
      await settle(50);
      expect(signals.map((s) => s.aborted)).toEqual([false, false, false]);
    } finally {
      desk.close(key);
    }
  });

  it('a client that hangs up aborts the waiting poll', async () => {
    let seen: AbortSignal | undefined;
    const key = desk.open(
      (waitMs, signal) =>
        new Promise((resolve) => {
          seen = signal;
          const timer = setTimeout(() => resolve({ status: 204 }), waitMs);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve({ status: 204 });
          });
        }),
    );
    try {
      const client = new AbortController();
      const pending = fetch(`${url}/api/arena/next-seat?wait=20`, {
        headers: { authorization: `Bearer ${key}` },
        signal: client.signal,
      }).catch((error: Error) => error.name);
      for (let i = 0; i < 100 && !seen; i++) await settle(10);
      expect(seen?.aborted).toBe(false);
      client.abort();
      expect(await pending).toBe('AbortError');
      for (let i = 0; i < 100 && !seen?.aborted; i++) await settle(10);
      expect(seen?.aborted).toBe(true);
    } finally {
      desk.close(key);
    }
  });
});
