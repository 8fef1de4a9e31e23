/**
 * Runs the digests due at an instant: `paperscout digest run-due`, and every minute in
 * `npm start`. For each active subscription it finishes any digest still being sent, then, if a
 * slot has come since the last complete one, sends one digest for it: after downtime, one
 * catch-up digest with everything missed, never one per missed day.
 *
 * Never twice: the papers of a slot are written to the ledger before anything is posted; each
 * part is marked in flight before posting and done after, so a restart resumes at the first
 * part not confirmed, and a part whose post was under way when the process died is only posted
 * again where the platform drops duplicates (Discord's nonce); elsewhere it counts as sent.
 */
import type { Logger } from 'pino';
import { messages as messagesFor, msg } from '../i18n/index.js';
import type { Library } from '../library.js';
import type { StateStore } from '../store/stateStore.js';
import { choosePapers, partCount, renderDigest, type DigestPart } from './compose.js';
import { latestSlot } from './schedule.js';
import { DeliveryError, type DigestSender } from './sender.js';
import type { ChatPlatform, DigestRun, DigestStore, Subscription } from './store.js';

/** Attempts on a forbidden or missing channel before its subscription is paused. */
export const MAX_FORBIDDEN_ATTEMPTS = 3;
/** Attempts on transient failures before a slot is given up. */
export const MAX_TRANSIENT_ATTEMPTS = 8;
/** Waits between attempts, by attempt number (minutes). */
const BACKOFF_MINUTES = [1, 5, 15, 60, 180, 360, 720];
/** Subscriptions worked on at once (posts are network-bound; the platform clients pace them). */
export const CONCURRENCY = 8;

export interface DigestDeps {
  digests: DigestStore;
  library: Library;
  states: StateStore;
  senders: Partial<Record<ChatPlatform, DigestSender>>;
  log: Logger;
}

export interface RunDueSummary {
  /** Subscriptions with a digest to send or finish. */
  due: number;
  /** Digests completed. */
  sent: number;
  /** Of those, digests with nothing new (one line). */
  empty: number;
  /** Digests waiting to be retried. */
  retrying: number;
  /** Subscriptions paused because their channel is gone or forbidden. */
  paused: number;
  /** Subscriptions on a platform with no sender here. */
  skipped: number;
}

/**
 * Sends every digest due at `at`.
 * @example await runDueDigests({ digests, library, states, senders: { slack }, log }, new Date())
 */
export async function runDueDigests(deps: DigestDeps, at: Date): Promise<RunDueSummary> {
  const summary: RunDueSummary = { due: 0, sent: 0, empty: 0, retrying: 0, paused: 0, skipped: 0 };
  const queue = deps.digests.active();
  const worker = async () => {
    for (let sub = queue.shift(); sub; sub = queue.shift()) {
      const sender = deps.senders[sub.platform];
      if (!sender) {
        summary.skipped++;
        continue;
      }
      try {
        await runSubscription(deps, sender, sub, at, summary);
      } catch (err) {
        deps.log.error({ err, subscription: sub.id, channel: sub.channel }, 'digest failed');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return summary;
}

async function runSubscription(deps: DigestDeps, sender: DigestSender, sub: Subscription, at: Date, summary: RunDueSummary): Promise<void> {
  const { digests } = deps;
  const slot = latestSlot(sub, at, new Date(sub.createdAt));
  for (const run of digests.openRuns(sub.id)) {
    if (run.nextAttemptAt && run.nextAttemptAt > at.toISOString()) {
      summary.retrying++;
      return;
    }
    if (slot && run.slot < slot.toISOString() && run.partsDone === 0 && !run.inFlight) {
      // Nothing of it arrived and a newer slot is due: the newer digest takes its papers.
      digests.dropUndelivered(sub, run);
      continue;
    }
    summary.due++;
    if (!(await deliver(deps, sender, sub, run, at, summary))) return;
  }
  if (!slot) return;
  const slotIso = slot.toISOString();
  const current = digests.get(sub.id) ?? sub;
  if (current.lastSlot && current.lastSlot >= slotIso) return;
  if (digests.run(sub.id, slotIso)) {
    digests.completeSlot(current, slotIso);
    return;
  }
  summary.due++;
  const since = new Date(current.lastDigestAt ?? current.createdAt);
  const plan = choosePapers(deps.library, digests, current, since);
  const run = digests.planRun(current, slotIso, plan, partCount(plan.papers.length), at);
  await deliver(deps, sender, current, run, at, summary);
}

/** Sends the parts of `run` not yet confirmed; returns whether the run is complete. */
async function deliver(deps: DigestDeps, sender: DigestSender, sub: Subscription, run: DigestRun, at: Date, summary: RunDueSummary): Promise<boolean> {
  const { digests, log } = deps;
  const messages = messagesFor(sub.locale ?? (await defaultLocale(sender, sub, log)));
  const parts = renderDigest({ library: deps.library, states: deps.states, now: at, messages }, sub, run, new Date(run.slot));
  let done = run.partsDone;
  if (run.inFlight && at.getTime() - Date.parse(run.updatedAt) > sender.duplicateWindowMs) {
    // It may have arrived, and the platform would no longer drop a repeat: counting it as sent
    // is the only way not to risk posting it twice.
    log.warn({ subscription: sub.id, slot: run.slot, part: done }, 'digest part was being posted when the process stopped; not posting it again');
    digests.finishPart(run, ++done, at);
  }
  for (; done < parts.length; done++) {
    const part = parts[done]!;
    digests.startPart(run, at);
    try {
      await sender.post(sub.channel, part.reply, idempotencyKey(sub, run, done));
    } catch (err) {
      if (!(err instanceof DeliveryError)) {
        // A timeout or a dropped connection: it may have arrived. It stays in flight.
        const attempts = run.attempts + 1;
        digests.recordUnknown(run, String(err), backoff(at, attempts), at);
        summary.retrying++;
        log.warn({ err, subscription: sub.id, slot: run.slot, part: done }, 'digest post outcome unknown; will decide on the next attempt');
        return false;
      }
      if (err.failure === 'rejected') {
        // This message will never go: skip it, and let its papers go out another day.
        log.error({ err: err.message, subscription: sub.id, slot: run.slot, part: done }, 'platform refused a digest message; skipping it');
        digests.releaseUndelivered(sub, run, part.paperIds);
        digests.finishPart(run, done + 1, at);
        continue;
      }
      return failed(deps, sub, { ...run, partsDone: done }, parts, err, at, summary);
    }
    digests.finishPart(run, done + 1, at);
  }
  digests.finishRun(sub, run, at);
  summary.sent++;
  if (run.papers.length === 0) summary.empty++;
  log.info({ subscription: sub.id, channel: sub.channel, slot: run.slot, papers: run.papers.length, parts: parts.length }, 'digest sent');
  return true;
}

function failed(deps: DigestDeps, sub: Subscription, run: DigestRun, parts: readonly DigestPart[], err: DeliveryError, at: Date, summary: RunDueSummary): false {
  const { digests, log } = deps;
  const attempts = run.attempts + 1;
  const undelivered = parts.slice(run.partsDone).flatMap((p) => p.paperIds);
  if (err.failure === 'forbidden' && attempts >= MAX_FORBIDDEN_ATTEMPTS) {
    digests.failPart(run, err.message, undefined, 'failed', at);
    digests.releaseUndelivered(sub, run, undelivered);
    digests.pause(sub.id, msg('digest.pausedForbidden', { reason: err.message }));
    summary.paused++;
    log.warn({ subscription: sub.id, channel: sub.channel, attempts, err: err.message }, 'digest channel gone or forbidden: subscription paused');
    return false;
  }
  if (err.failure !== 'forbidden' && attempts >= MAX_TRANSIENT_ATTEMPTS) {
    digests.failPart(run, err.message, undefined, 'failed', at);
    digests.releaseUndelivered(sub, run, undelivered);
    digests.completeSlot(sub, run.slot);
    log.error({ subscription: sub.id, slot: run.slot, attempts, err: err.message }, 'digest given up after repeated failures');
    return false;
  }
  const next = backoff(at, attempts);
  digests.failPart(run, err.message, next, 'sending', at);
  summary.retrying++;
  log.warn({ subscription: sub.id, slot: run.slot, attempts, retryAt: next.toISOString(), err: err.message }, 'digest post failed; will retry');
  return false;
}

/** The platform's default language for a subscription that has none of its own (English if it cannot say). */
async function defaultLocale(sender: DigestSender, sub: Subscription, log: Logger): Promise<string | undefined> {
  try {
    return await sender.defaultLocale?.(sub);
  } catch (err) {
    log.warn({ err, subscription: sub.id }, 'could not read the default locale of a digest channel; writing it in English');
    return undefined;
  }
}

function backoff(at: Date, attempts: number): Date {
  return new Date(at.getTime() + (BACKOFF_MINUTES[Math.min(attempts, BACKOFF_MINUTES.length) - 1] ?? 60) * 60_000);
}

/**
 * A short key for one part of one digest, the same every time it is tried (Discord nonces are
 * at most 25 characters).
 */
export function idempotencyKey(sub: Subscription, run: DigestRun, part: number): string {
  return `d${sub.id.toString(36)}.${Math.floor(Date.parse(run.slot) / 60_000).toString(36)}.${part}`;
}
