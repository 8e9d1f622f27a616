// `--queue URL` of `arena run` and `arena serve`: connect to the game workers' queue before the engine starts, so a
// bad URL (exit 2) or an unreachable Redis (exit 1, main) fails fast with a message instead of a run that waits for ever.

import { parseQueueUrl, QueueUrlError } from '../workers/queue-connection.js';
import { connectQueue, type QueueDispatch } from '../workers/queue-runner.js';
import { TRUSTED_FILE, trustedWorkers, WorkerKeyError } from '../workers/worker-keys.js';
import { UsageError } from './args.js';

/** The workers whose records this coordinator accepts; none is a usage error naming the fix (a safe default). */
function coordinatorTrust(dataDir: string, files: readonly string[]) {
  let trusted: ReturnType<typeof trustedWorkers>;
  try {
    trusted = trustedWorkers(dataDir, files);
  } catch (error) {
    if (error instanceof WorkerKeyError) throw new UsageError(error.message);
    throw error;
  }
  if (trusted.length === 0)
    throw new UsageError(
      `--queue needs trusted workers: no worker's records would be accepted. On each worker machine run "arena worker init" and here "arena workers trust <its public key> --name <its id>" (kept in ${dataDir}/${TRUSTED_FILE}), or pass --trusted-workers FILE`,
    );
  return trusted;
}

export async function coordinatorQueue(
  url: string,
  trust: { dataDir: string; files: readonly string[] },
  onLost: (message: string) => void,
): Promise<QueueDispatch> {
  let target: ReturnType<typeof parseQueueUrl>;
  try {
    target = parseQueueUrl(url, 'coordinator');
  } catch (error) {
    if (error instanceof QueueUrlError) throw new UsageError(error.message);
    throw error;
  }
  const trusted = coordinatorTrust(trust.dataDir, trust.files);
  return await connectQueue({
    target,
    trusted,
    onLost,
    log: (message) => process.stderr.write(`arena: ${message}\n`),
    ...(process.env.ARENA_QUEUE_UNREACHABLE_MS ? { unreachableMs: Number(process.env.ARENA_QUEUE_UNREACHABLE_MS) } : {}),
  });
}
