// Audit bundles over the admin API (issue 48): a run's bundle as a download, and a bundle file checked by the engine's
// own verifier, the one `arena verify` runs. The result is shown as returned: each check that held, each difference.
import { z } from 'zod';

/** Largest bundle file `POST /bundles/verify` reads; a bigger body is answered 413. */
export const BUNDLE_UPLOAD_LIMIT_BYTES = 64 * 1024 * 1024;
/** Largest unpacked size it inflates to (a small gzip can expand without bound); more is refused with a 400. */
export const BUNDLE_UNPACKED_LIMIT_BYTES = 512 * 1024 * 1024;

/** `GET /tournaments/:id/bundle?with_files=true`: also carry every agent's manifest and entry file. */
export const TournamentBundleQuerySchema = z.object({
  with_files: z.enum(['true', 'false']).default('false'),
});

/** What `arena verify --json` prints, field for field. */
export const BundleVerificationSchema = z.object({
  ok: z.boolean(),
  /** What was checked and held. */
  checks: z.array(z.string()),
  /** Each difference, starting with the file it is in. */
  problems: z.array(z.string()),
});
export type BundleVerification = z.infer<typeof BundleVerificationSchema>;
