/**
 * Runs the digests due at an instant: `paperscout digest run-due`, and every minute in
 * `npm start`. For each active subscription it finishes any digest still being sent, then, if a
 * slot has come since the last complete one, sends one digest for it: after downtime, one
 * catch-up digest with everything missed, never one per missed day.
 *
 * One process per run: a run is sent only under its lease (see `src/store/digests.ts`), so two
 * `npm start` on one DATA_DIR, or a cron tick while the previous `run-due` is still waiting out a
 * rate limit, never send the same run; a lease left by a process that died expires after
 * `LEASE_TTL_MS` (`pass.ts`) and is taken over. How each part is posted, and what a failure means,
 * is in `deliver.ts`. Another process's write lock is waited for, up to
 * {@link LOCK_WAIT_BUDGET_MS} for the whole pass (`lockWait.ts`); what is left then goes to the
 * next pass, in one warning.
 */
import { clockStartingAt } from '../clock.js';
import { processOwner } from '../processes.js';
import { choosePapers, partCount } from './compose.js';
import { deliverRun } from './deliver.js';
import { LockWait } from './lockWait.js';
import { leaseFor, profileOf, type DigestDeps, type Pass, type RunDueSummary } from './pass.js';
import { latestSlot } from './schedule.js';
import type { DigestSender } from './sender.js';
import type { RunRef, Subscription } from '../store/digests.js';

/** Subscriptions worked on at once (posts are network-bound). */
export const CONCURRENCY = 8;
/**
 * How long a pass waits, in all, for another process's write lock before leaving the digests it
 * could not send to the next pass: half the minute between passes.
 */
export const LOCK_WAIT_BUDGET_MS = 30_000;

/**
 * Sends every digest due at `at`.
 * @example await runDueDigests({ digests, library, states, senders: { slack }, log }, new Date())
 */
export async function runDueDigests(deps: DigestDeps, at: Date): Promise<RunDueSummary> {
  const pass: Pass = {
    ...deps,
    clock: deps.clock ?? clockStartingAt(at),
    owner: deps.owner ?? processOwner(),
    at,
    summary: { due: 0, sent: 0, empty: 0, retrying: 0, paused: 0, skipped: 0, busy: 0, deferred: 0, locked: 0 },
    waitUntil: new Map(),
    dueRuns: new Set(),
  };
  const queue = await deps.digests.active();
  // Another process's write lock is waited for once for the whole pass (see lockWait.ts).
  const lock = new LockWait(pass.clock, LOCK_WAIT_BUDGET_MS, deps.signal);
  const worker = async () => {
    for (let sub = queue.shift(); sub; sub = queue.shift()) {
      const sender = deps.senders[sub.platform];
      if (!sender) {
        pass.summary.skipped++;
        continue;
      }
      if (pass.waitUntil.has(sub.platform)) {
        pass.summary.deferred++;
        continue;
      }
      try {
        if (!(await lock.run(() => runSubscription(pass, sender, sub)))) pass.summary.locked++;
      } catch (err) {
        deps.log.error({ err, subscription: sub.id, channel: sub.channel }, 'digest failed');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (pass.summary.locked > 0) {
    // Nothing of them was posted; a run this pass had claimed waits for its lease to lapse.
    const context = { locked: pass.summary.locked, waitedMs: lock.waitedMs };
    if (deps.signal?.aborted) deps.log.info(context, 'digest pass stopped while another process held the database write lock; the next pass sends what is left');
    else deps.log.warn(context, `digests left for the next pass: another process held the database write lock for more than ${LOCK_WAIT_BUDGET_MS / 1000} s`);
  }
  return pass.summary;
}

async function runSubscription(pass: Pass, sender: DigestSender, sub: Subscription): Promise<void> {
  const { digests, summary, owner } = pass;
  const slot = latestSlot(sub, pass.at, new Date(sub.createdAt));
  for (const listed of await digests.openRuns(sub.id)) {
    const run = await digests.claimRun(listed, leaseFor(pass));
    if (!run) {
      // Not due yet, or another process is sending it: either way, nothing newer goes first.
      const stored = await digests.run(listed.subscriptionId, listed.slot);
      if (stored?.state === 'sending') {
        if (stored.nextAttemptAt && stored.nextAttemptAt > pass.clock.now().toISOString()) summary.retrying++;
        else summary.busy++;
      }
      return;
    }
    try {
      if (slot && run.slot < slot.toISOString() && run.partsDone === 0 && !run.inFlight) {
        // Nothing of it arrived and a newer slot is due: the newer digest takes its papers.
        await digests.dropUndelivered(sub, run, owner);
        continue;
      }
      countDue(pass, run);
      if (!(await deliverRun(pass, sender, sub, run))) return;
    } finally {
      await digests.releaseRun(run, owner);
    }
  }
  if (!slot) return;
  const slotIso = slot.toISOString();
  const current = await digests.get(sub.id);
  if (!current || current.status !== 'active') return;
  if (current.lastSlot && current.lastSlot >= slotIso) return;
  const existing = await digests.run(sub.id, slotIso);
  if (existing) {
    if (existing.state !== 'sending') await digests.completeSlot(current, slotIso);
    else summary.busy++; // planned by another process since this one listed the open runs
    return;
  }
  const since = new Date(current.lastDigestAt ?? current.createdAt);
  const plan = await choosePapers(pass.library, digests, current, since, await profileOf(pass, current));
  const run = await digests.planRun(current, slotIso, plan, partCount(plan.papers.length), leaseFor(pass));
  if (!run) {
    summary.busy++;
    return;
  }
  countDue(pass, run);
  try {
    await deliverRun(pass, sender, current, run);
  } finally {
    await digests.releaseRun(run, owner);
  }
}

function countDue(pass: Pass, run: RunRef): void {
  pass.dueRuns.add(`${run.subscriptionId}@${run.slot}`);
  pass.summary.due = pass.dueRuns.size;
}
