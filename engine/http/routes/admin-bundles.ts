// Audit bundles over the admin API (issue 48): download a run's bundle, and verify a bundle file sent as the raw
// request body with the engine's own verifier (the checks and messages of `arena verify`).
import type { FastifyInstance } from 'fastify';
import {
  BUNDLE_UNPACKED_LIMIT_BYTES,
  BUNDLE_UPLOAD_LIMIT_BYTES,
  type BundleVerification,
  TournamentBundleQuerySchema,
} from '../../contract/audit-bundle.js';
import { DomainError } from '../../contract/errors.js';
import { verifyBundle } from '../../tournaments/bundle/bundle.js';
import { notABundleReason } from '../../tournaments/bundle/bundle-file.js';
import type { TournamentService } from '../../tournaments/service.js';
import { readAdminQuery } from '../body.js';

/** Content types a bundle file may arrive as (browsers label .tar.gz either way; clients may send plain bytes). */
const BUNDLE_TYPES = ['application/gzip', 'application/x-gzip', 'application/octet-stream'];

export function registerAdminBundleRoutes(admin: FastifyInstance, tournaments: () => TournamentService | undefined): void {
  admin.get<{ Params: { id: string } }>('/tournaments/:id/bundle', async (req, reply) => {
    const q = readAdminQuery(TournamentBundleQuerySchema, req.query, { named: true });
    const service = tournaments();
    if (!service) throw new DomainError('unavailable', 'the tournament service is starting');
    service.get(req.params.id);
    const archive = await service.bundle(req.params.id, { withFiles: q.with_files === 'true' });
    return reply
      .type('application/gzip')
      .header('Content-Disposition', `attachment; filename="${req.params.id}.bundle.tar.gz"`)
      .send(archive);
  });

  // Its own scope: only here are raw bytes read as the body (everywhere else a body is JSON), with a larger limit.
  admin.register(async (scope) => {
    scope.addContentTypeParser(BUNDLE_TYPES, { parseAs: 'buffer', bodyLimit: BUNDLE_UPLOAD_LIMIT_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/bundles/verify', { bodyLimit: BUNDLE_UPLOAD_LIMIT_BYTES }, async (req): Promise<BundleVerification> => {
      if (!Buffer.isBuffer(req.body))
        throw new DomainError(
          'invalid',
          `send the bundle file itself as the body, with Content-Type ${BUNDLE_TYPES.join(' or ')} (got ${req.headers['content-type'] ?? 'none'})`,
        );
      const reason = notABundleReason(req.body, BUNDLE_UNPACKED_LIMIT_BYTES);
      if (reason !== null)
        throw new DomainError(
          'invalid',
          `Not an audit bundle: ${reason}. Export one with arena export --bundle or the run's "Export audit bundle".`,
        );
      return verifyBundle(req.body);
    });
  });
}
