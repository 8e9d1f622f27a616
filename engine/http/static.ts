// Serves the built renderer at / (index.html and /assets/*). Hash routing means no fallback route is needed.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RENDERER_CONTENT_TYPES } from '../runtime/content-types.js';

// The UI talks only to this origin; the fragment token never reaches the server.
const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

export function registerStaticRoutes(app: FastifyInstance, rendererDir: string): void {
  const root = path.resolve(rendererDir);
  const sendFile = (file: string, reply: import('fastify').FastifyReply) => {
    const resolved = path.resolve(root, file);
    if (!resolved.startsWith(root + path.sep)) return reply.callNotFound();
    let data: Buffer;
    try {
      data = fs.readFileSync(resolved);
    } catch {
      return reply.callNotFound();
    }
    const type = RENDERER_CONTENT_TYPES[path.extname(resolved)] ?? 'application/octet-stream';
    reply.header('Content-Security-Policy', CSP).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    if (file.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    else reply.header('Cache-Control', 'no-cache');
    return reply.type(type).send(data);
  };
  app.get('/', async (_req, reply) => sendFile('index.html', reply));
  app.get('/index.html', async (_req, reply) => sendFile('index.html', reply));
  app.get<{ Params: { '*': string } }>('/assets/*', async (req, reply) => sendFile(`assets/${req.params['*']}`, reply));
}
