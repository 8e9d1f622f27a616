// What every engine listener shares: body limit, no request logging, path-only log lines, lenient JSON bodies.
import { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { secretScrubber } from '../runtime/known-secrets.js';
import { parseJsonBody } from './body.js';

export const BODY_LIMIT_BYTES = 256 * 1024;

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';

export function baseFastifyOptions(logLevel: LogLevel = 'warn') {
  return {
    bodyLimit: BODY_LIMIT_BYTES,
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: logLevel,
      serializers: {
        // Query strings can carry session keys (?key=), so only the path is ever logged.
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
        // An error's text can quote what an agent sent; it is logged without any secret the engine knows of.
        err: (err: Error) => {
          const scrub = secretScrubber();
          return { type: err.name, message: scrub(err.message), stack: scrub(err.stack ?? '') };
        },
      },
      hooks: {
        logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
          const scrub = secretScrubber();
          method.apply(this, scrub.size === 0 ? args : args.map((a) => (typeof a === 'string' ? scrub(a) : a)));
        },
      },
    },
    // Requests are not logged, so each one sharing the listener's logger saves building a child logger per request.
    childLoggerFactory: (logger) => logger,
    return503OnClosing: true,
  } satisfies FastifyServerOptions;
}

/** Bodies are read as JSON whatever their content type, as the reference does; a non-JSON body becomes INVALID_JSON. */
export function acceptJsonBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, parseJsonBody(text as string)));
}
