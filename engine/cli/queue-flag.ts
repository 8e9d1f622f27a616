// `--queue URL` of `arena run` and `arena serve`: connect to the game workers' queue before the engine starts, so a
// bad URL (exit 2) or an unreachable Redis (exit 1, main) fails fast with a message instead of a run that waits for ever.

import { parseQueueUrl, QueueUrlError } from '../workers/queue-connection.js';
import { connectQueue, type QueueDispatch } from '../workers/queue-runner.js';
import { UsageError } from './args.js';

export async function coordinatorQueue(url: string, onLost: (message: string) => void): Promise<QueueDispatch> {
  let target: ReturnType<typeof parseQueueUrl>;
  try {
    target = parseQueueUrl(url, 'coordinator');
  } catch (error) {
    if (error instanceof QueueUrlError) throw new UsageError(error.message);
    throw error;
  }
  return await connectQueue({
    target,
    onLost,
    log: (message) => process.stderr.write(`arena: ${message}\n`),
    ...(process.env.ARENA_QUEUE_UNREACHABLE_MS ? { unreachableMs: Number(process.env.ARENA_QUEUE_UNREACHABLE_MS) } : {}),
  });
}
