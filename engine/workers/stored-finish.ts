// A job's state and finish as Redis stores them. The coordinator's backstop for a finish whose event its QueueEvents
// reader never saw: BullMQ's waitUntilFinished misses a job that finishes before the reader's first read of the stream.
import { Job, type JobState, type Queue } from 'bullmq';

export type StoredFinish = { value: unknown } | { error: string };

/**
 * The job's state, and its result once it has finished (else null). The state is read before the job, so a completed
 * state always comes with the value stored with it (the other order can read the job just before it completes).
 */
export async function storedJob(queue: Queue, id: string): Promise<{ state: JobState | 'unknown'; finish: StoredFinish | null }> {
  const state = await queue.getJobState(id);
  if (state !== 'completed' && state !== 'failed') return { state, finish: null };
  const job = await Job.fromId(queue, id);
  return { state, finish: state === 'completed' ? { value: job?.returnvalue } : { error: job?.failedReason || 'the job failed' } };
}
