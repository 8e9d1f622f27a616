// What every engine listener shares: body limit, no request logging, path-only log lines, lenient JSON bodies.
import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { parseJsonBody } from './body.js';

export const BODY_LIMIT_BYTES = 256 * 1024;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';

export function baseFastifyOptions(logLevel: LogLevel = 'warn') {
  return {
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: logLevel,
      // Query strings can carry session keys (?key=), so only the path is ever logged.
      serializers: { req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }) },
    },
    return503OnClosing: true,
  } satisfies FastifyServerOptions;
}

/** Bodies are read as JSON whatever their content type, as the reference does; a non-JSON body becomes INVALID_JSON. */
export function acceptJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, parseJsonBody(text as string)));
}
