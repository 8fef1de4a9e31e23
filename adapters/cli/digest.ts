/**
 * `paperscout digest run-due [--at <ISO time>]`: sends the digests due at that instant (default
 * now) through the platforms configured in the environment, and exits: for cron-driven
 * deployments and for tests.
 * `paperscout digest preview <channel> [--at <ISO time>]`: prints what that channel's digests
 * would hold, sending nothing.
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { choosePapers, renderDigest } from '../../src/digest/compose.js';
import { latestSlot } from '../../src/digest/schedule.js';
import { runDueDigests } from '../../src/digest/runner.js';
import type { DigestSender } from '../../src/digest/sender.js';
import type { ChatPlatform } from '../../src/digest/store.js';
import { UserError } from '../../src/errors.js';
import { renderText } from '../terminal/render.js';

/** The platforms' senders (loaded only for run-due: they bring the platform SDKs). */
export type SenderFactory = (app: App) => Promise<Partial<Record<ChatPlatform, DigestSender>>>;

export async function runDigestCommand(app: App, args: string[], createSenders: SenderFactory): Promise<number> {
  const [verb, ...rest] = args;
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { at: { type: 'string' } } });
  const at = values.at === undefined ? new Date() : new Date(values.at);
  if (Number.isNaN(at.getTime())) throw new UserError('cli.badAt', { value: values.at ?? '' });
  if (verb === 'run-due') {
    const senders = await createSenders(app);
    if (Object.keys(senders).length === 0) {
      throw new UserError('cli.noPlatform');
    }
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log: app.log }, at);
    process.stdout.write(
      `Digests due at ${at.toISOString()}: ${summary.due} due, ${summary.sent} sent (${summary.empty} with nothing new), ` +
        `${summary.retrying} to retry, ${summary.paused} paused, ${summary.busy} being sent by another process, ` +
        `${summary.deferred} left for later by a rate limit, ${summary.locked} left for later by another process's write lock, ` +
        `${summary.skipped} on platforms not configured here\n`,
    );
    return 0;
  }
  if (verb === 'preview') {
    const channel = positionals[0];
    if (!channel) throw new UserError('cli.giveChannel');
    const subs = (await Promise.all((['discord', 'slack'] as const).map((p) => app.digests.forChannel(p, channel)))).flat();
    if (subs.length === 0) throw new UserError('cli.noDigests', { channel });
    for (const sub of subs) {
      const slot = latestSlot(sub, at) ?? at;
      const plan = await choosePapers(app.library, app.digests, sub, new Date(sub.lastDigestAt ?? sub.createdAt));
      const parts = await renderDigest({ library: app.library, states: app.states, now: at }, sub, { ...plan, papers: plan.papers.map((p) => p.id) }, slot);
      process.stdout.write(`── ${sub.platform} ${sub.channel} · ${sub.label} (${sub.status}) ──\n`);
      for (const part of parts) process.stdout.write(renderText(part.reply, { ansi: process.stdout.isTTY === true, width: 100 }));
    }
    return 0;
  }
  throw new UserError('cli.digestUsage');
}
