/**
 * Sending one digest run, part by part, under its lease. Before each part the run is read back
 * from the store (parts confirmed, lease still held); a part is marked in flight before it is
 * posted and confirmed after. What a failed post means decides what happens next:
 *
 * - certainly not posted (refused, unreachable, 5xx, 403/404): tried again with backoff, its
 *   papers never counted as sent; a run given up releases them to the next digest;
 * - rate limited: a wait up to {@link RATE_LIMIT_WAIT_CAP_MS} is waited out; a longer one
 *   reschedules the part at that time and the pass moves on;
 * - refused as a message (400): skipped, its papers released to the next digest;
 * - unknown (the answer was lost after the request went out): the part stays in flight. Before it
 *   is posted again it is looked for in the channel ({@link DigestSender.find}), unless the
 *   platform still drops a repeat of it (Discord's enforced nonce, within its window).
 */
import { messages as messagesFor, msg } from '../i18n/index.js';
import { renderDigest, type DigestPart } from './compose.js';
import { leaseFor, profileOf, type Pass } from './pass.js';
import { DeliveryError, type DigestPartId, type DigestSender, type LookupWindow } from './sender.js';
import type { DigestRun, Subscription } from '../store/digests.js';

/** Attempts on a forbidden or missing channel before its subscription is paused. */
export const MAX_FORBIDDEN_ATTEMPTS = 3;
/** Attempts on other failures before a run is given up. */
export const MAX_TRANSIENT_ATTEMPTS = 8;
/** Waits between attempts, by attempt number (minutes). */
const BACKOFF_MINUTES = [1, 5, 15, 60, 180, 360, 720];
/** The longest rate-limit wait sat out in a pass; a longer one reschedules the part instead. */
export const RATE_LIMIT_WAIT_CAP_MS = 60_000;
/** Rate-limit waits sat out for one run in one pass before it is rescheduled. */
const MAX_RATE_LIMIT_WAITS = 5;
/** How far the platform's clock may be from ours, when looking for a part in the channel. */
const CLOCK_SKEW_MS = 5 * 60_000;
/** A part arrives within this long of its last attempt, or not at all (client timeouts are 30 s). */
const ARRIVAL_SPAN_MS = 10 * 60_000;
/** Longer lease for a lookup: it may read a few pages of history, each allowed 30 s. */
const LOOKUP_LEASE_MS = 3 * 60_000;

/**
 * Sends the parts of `claimed` (a run whose lease this pass holds) not yet confirmed; returns
 * whether the run is complete.
 * @example const run = await digests.claimRun(listed, leaseFor(pass)); if (run && (await deliverRun(pass, sender, sub, run))) …
 */
export async function deliverRun(pass: Pass, sender: DigestSender, sub: Subscription, claimed: DigestRun): Promise<boolean> {
  const { digests, clock, owner, log, summary } = pass;
  // In the subscriber's language, else the platform's default for the channel's server.
  const messages = messagesFor(sub.locale ?? (await defaultLocale(sender, sub, log)));
  const parts = await renderDigest({ library: pass.library, states: pass.states, now: pass.at, messages, profile: await profileOf(pass, sub) }, sub, claimed, new Date(claimed.slot));
  const context = { subscription: sub.id, channel: sub.channel, slot: claimed.slot };
  let waits = 0;
  for (;;) {
    const run = await digests.renewLease(claimed, leaseFor(pass));
    if (!run) {
      log.warn(context, 'digest run taken over or removed by someone else; leaving it');
      summary.busy++;
      return false;
    }
    const index = run.partsDone;
    if (index >= parts.length) {
      if (!(await digests.finishRun(sub, run, owner, clock.now()))) continue;
      summary.sent++;
      if (run.papers.length === 0) summary.empty++;
      log.info({ ...context, papers: run.papers.length, parts: parts.length }, 'digest sent');
      return true;
    }
    const part = parts[index]!;
    const id = partId(sub, run, index);
    if (run.inFlight && !withinDuplicateWindow(sender, run, clock.now())) {
      // An earlier attempt's answer was lost: find out whether it arrived before posting again.
      await digests.renewLease(run, leaseFor(pass, LOOKUP_LEASE_MS));
      let found: boolean;
      try {
        found = await sender.find(sub.channel, id, lookupWindow(run));
      } catch (err) {
        return failed(pass, sub, run, parts, asDeliveryError(err, 'transient'), 'lookup');
      }
      log.info({ ...context, part: index, found }, found ? 'digest part of unknown outcome had arrived' : 'digest part of unknown outcome had not arrived; posting it');
      if (found) await digests.finishPart(run, owner, index + 1, clock.now());
      else await digests.clearInFlight(run, owner, clock.now());
      continue;
    }
    const blocked = pass.waitUntil.get(sub.platform);
    if (blocked !== undefined) return deferred(pass, run, blocked);
    if (!(await digests.startPart(run, owner, clock.now()))) continue; // the lease is gone: the next renewal says so
    let failure: DeliveryError | undefined;
    try {
      await sender.post(sub.channel, part.reply, id);
    } catch (err) {
      failure = asDeliveryError(err, 'unknown');
    }
    if (!failure) {
      await digests.finishPart(run, owner, index + 1, clock.now());
      continue;
    }
    if (failure.failure === 'rejected') {
      // This message will never go: skip it, and let its papers go out another day.
      log.error({ ...context, part: index, err: failure.message }, 'platform refused a digest message; skipping it');
      await digests.releaseUndelivered(sub, run, owner, part.paperIds);
      await digests.finishPart(run, owner, index + 1, clock.now());
      continue;
    }
    const wait = failure.failure === 'rateLimited' ? failure.retryAfterMs : undefined;
    if (wait !== undefined && wait <= RATE_LIMIT_WAIT_CAP_MS && waits++ < MAX_RATE_LIMIT_WAITS) {
      // Not posted; a short wait is cheaper than a reschedule. The lease covers the wait.
      await digests.failPart(run, owner, { error: failure.message, inFlight: run.inFlight, attempts: run.attempts, state: 'sending' }, clock.now());
      await digests.renewLease(run, leaseFor(pass, wait));
      log.info({ ...context, part: index, waitMs: wait }, 'digest post rate limited; waiting');
      await clock.sleep(wait);
      continue;
    }
    if (wait !== undefined) return rescheduled(pass, sub, run, failure, wait);
    return failed(pass, sub, run, parts, failure, 'post');
  }
}

/** A long rate limit: try the part again when the platform said, and leave the platform alone until then. */
async function rescheduled(pass: Pass, sub: Subscription, run: DigestRun, failure: DeliveryError, wait: number): Promise<false> {
  const now = pass.clock.now();
  const next = new Date(now.getTime() + wait);
  await pass.digests.failPart(run, pass.owner, { error: failure.message, inFlight: run.inFlight, attempts: run.attempts + 1, next, state: 'sending' }, now);
  if (failure.platformWide) pass.waitUntil.set(sub.platform, next.getTime());
  pass.summary.retrying++;
  pass.log.warn({ subscription: sub.id, slot: run.slot, part: run.partsDone, retryAt: next.toISOString(), platformWide: failure.platformWide }, 'digest post rate limited for longer than this pass waits; rescheduled');
  return false;
}

/** The platform asked this pass to wait (for another digest): try again when it said. */
async function deferred(pass: Pass, run: DigestRun, until: number): Promise<false> {
  const error = 'the platform asked for a wait (rate limit)';
  await pass.digests.failPart(run, pass.owner, { error, inFlight: run.inFlight, attempts: run.attempts, next: new Date(until), state: 'sending' }, pass.clock.now());
  pass.summary.retrying++;
  return false;
}

async function failed(pass: Pass, sub: Subscription, run: DigestRun, parts: readonly DigestPart[], err: DeliveryError, phase: 'post' | 'lookup'): Promise<false> {
  const { digests, log, owner, summary } = pass;
  const now = pass.clock.now();
  const attempts = run.attempts + 1;
  // A part whose outcome is still unknown may have arrived: its papers stay recorded as sent.
  const inFlight = run.inFlight || err.failure === 'unknown';
  const undelivered = parts.slice(run.partsDone + (inFlight ? 1 : 0)).flatMap((p) => p.paperIds);
  const context = { subscription: sub.id, channel: sub.channel, slot: run.slot, part: run.partsDone, attempts, err: err.message };
  if (err.failure === 'forbidden' && attempts >= MAX_FORBIDDEN_ATTEMPTS) {
    if (inFlight) {
      // Whether the part arrived cannot be checked: it stays unresolved (resubscribing resumes it).
      await digests.failPart(run, owner, { error: err.message, inFlight: true, attempts, state: 'sending' }, now);
      await digests.pause(sub.id, msg(phase === 'lookup' ? 'digest.pausedUnreadable' : 'digest.pausedForbidden', { reason: err.message }));
      log.warn(context, 'digest channel forbidden with a part of unknown outcome: subscription paused, the part left to check');
    } else {
      await digests.releaseUndelivered(sub, run, owner, undelivered);
      await digests.failPart(run, owner, { error: err.message, inFlight: false, attempts, state: 'failed' }, now);
      await digests.pause(sub.id, msg('digest.pausedForbidden', { reason: err.message }));
      log.warn(context, 'digest channel gone or forbidden: subscription paused');
    }
    summary.paused++;
    return false;
  }
  // A run is given up after repeated failures, but never with a part of unknown outcome: its
  // papers can neither be counted as sent nor released without knowing. It keeps being looked
  // for (every 12 hours at most) until the platform answers.
  if (err.failure !== 'forbidden' && attempts >= MAX_TRANSIENT_ATTEMPTS && !inFlight) {
    await digests.releaseUndelivered(sub, run, owner, undelivered);
    await digests.failPart(run, owner, { error: err.message, inFlight, attempts, state: 'failed' }, now);
    await digests.completeSlot(sub, run.slot);
    log.error(context, 'digest given up after repeated failures; its papers go to the next digest');
    return false;
  }
  const next = backoff(now, attempts);
  await digests.failPart(run, owner, { error: err.message, inFlight, attempts, next, state: 'sending' }, now);
  summary.retrying++;
  const what =
    phase === 'lookup'
      ? 'could not check whether a digest part of unknown outcome arrived; will check again'
      : err.failure === 'unknown'
        ? 'digest post outcome unknown; will look for it before posting again'
        : 'digest post failed; will retry';
  log.warn({ ...context, retryAt: next.toISOString() }, what);
  return false;
}

function asDeliveryError(err: unknown, otherwise: 'unknown' | 'transient'): DeliveryError {
  return err instanceof DeliveryError ? err : new DeliveryError(otherwise, err instanceof Error ? err.message : String(err), { cause: err });
}

function withinDuplicateWindow(sender: DigestSender, run: DigestRun, now: Date): boolean {
  const since = Date.parse(run.inFlightSince ?? run.updatedAt);
  return sender.duplicateWindowMs > 0 && now.getTime() - since < sender.duplicateWindowMs;
}

/** From (a margin before) the part's first attempt to (a span after) its last. */
function lookupWindow(run: DigestRun): LookupWindow {
  const first = Date.parse(run.inFlightSince ?? run.updatedAt);
  const last = Math.max(first, Date.parse(run.updatedAt));
  return { from: new Date(first - CLOCK_SKEW_MS), to: new Date(last + ARRIVAL_SPAN_MS) };
}

function backoff(at: Date, attempts: number): Date {
  return new Date(at.getTime() + (BACKOFF_MINUTES[Math.min(attempts, BACKOFF_MINUTES.length) - 1] ?? 60) * 60_000);
}

/** Which part of which digest a message is. */
export function partId(sub: Subscription, run: { slot: string }, part: number): DigestPartId {
  return { key: idempotencyKey(sub, run, part), subscription: sub.id, slot: run.slot, part, workspace: sub.workspace };
}

/**
 * A short key for one part of one digest, the same every time it is tried (Discord nonces are
 * at most 25 characters).
 * @example idempotencyKey({ id: 1 }, { slot: '2026-03-02T09:00:00.000Z' }, 0) // 'd1.<minutes in base 36>.0'
 */
export function idempotencyKey(sub: Pick<Subscription, 'id'>, run: { slot: string }, part: number): string {
  return `d${sub.id.toString(36)}.${Math.floor(Date.parse(run.slot) / 60_000).toString(36)}.${part}`;
}

/** The platform's default language for a subscription that has none of its own (English if it cannot say). */
async function defaultLocale(sender: DigestSender, sub: Subscription, log: Pass['log']): Promise<string | undefined> {
  try {
    return await sender.defaultLocale?.(sub);
  } catch (err) {
    log.warn({ err, subscription: sub.id }, 'could not read the default locale of a digest channel; writing it in English');
    return undefined;
  }
}
