/**
 * `paperscout digest list [--json]`: every subscription of every channel, with its next run and
 * the last digest sent.
 * `paperscout digest run-due [--at <ISO time>]`: sends the digests due at that instant (default
 * now) through the platforms configured in the environment, and exits: for cron-driven
 * deployments and for tests.
 * `paperscout digest preview <channel> [--at <ISO time>]`: prints what that channel's digests
 * would hold, sending nothing.
 */
import { parseArgs } from 'node:util';
import type { App } from '../../src/app.js';
import { choosePapers, renderDigest, subscriptionLabel } from '../../src/digest/compose.js';
import { channelProfile, libraryFilters } from '../../src/digest/source.js';
import { latestSlot, nextSlot } from '../../src/digest/schedule.js';
import { runDueDigests } from '../../src/digest/runner.js';
import type { DigestSender } from '../../src/digest/sender.js';
import { pausedReasonText, type ChatPlatform, type Subscription } from '../../src/store/digests.js';
import { UserError } from '../../src/errors.js';
import { messages, type Messages } from '../../src/i18n/index.js';
import { renderText } from '../terminal/render.js';
import { displayWidth } from '../terminal/width.js';

/** The platforms' senders (loaded only for run-due: they bring the platform SDKs). */
export type SenderFactory = (app: App) => Promise<Partial<Record<ChatPlatform, DigestSender>>>;

export async function runDigestCommand(app: App, args: string[], m: Messages, createSenders: SenderFactory): Promise<number> {
  const [verb, ...rest] = args;
  if (verb === 'list') return list(app, rest, m);
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { at: { type: 'string' } } });
  const at = values.at === undefined ? new Date() : new Date(values.at);
  if (Number.isNaN(at.getTime())) throw new UserError('cli.badAt', { value: values.at ?? '' });
  if (verb === 'run-due') {
    const senders = await createSenders(app);
    if (Object.keys(senders).length === 0) {
      throw new UserError('cli.noPlatform');
    }
    const summary = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, readingLists: app.stores.readingLists, senders, log: app.log }, at);
    process.stdout.write(`${m.t('cli.digest.due', { at: at.toISOString(), ...summary })}\n`);
    return 0;
  }
  if (verb === 'preview') {
    const channel = positionals[0];
    if (!channel) throw new UserError('cli.giveChannel');
    const subs = (await Promise.all((['discord', 'slack'] as const).map((p) => app.digests.forChannel(p, channel)))).flat();
    if (subs.length === 0) throw new UserError('cli.noDigests', { channel });
    for (const sub of subs) {
      const slot = latestSlot(sub, at) ?? at;
      const profile = libraryFilters(sub.query) === undefined ? [] : await channelProfile(app.stores.readingLists, sub);
      const plan = await choosePapers(app.library, app.digests, sub, new Date(sub.lastDigestAt ?? sub.createdAt), profile);
      const parts = await renderDigest({ library: app.library, states: app.states, now: at, profile }, sub, { ...plan, papers: plan.papers.map((p) => p.id) }, slot);
      const label = subscriptionLabel(app.taxonomy, sub, m);
      process.stdout.write(`${m.t('cli.digest.previewHeading', { platform: sub.platform, channel: sub.channel, label, paused: sub.status === 'paused' ? 'yes' : 'no' })}\n`);
      for (const part of parts) process.stdout.write(renderText(part.reply, { ansi: process.stdout.isTTY === true, width: 100 }));
    }
    return 0;
  }
  throw new UserError('cli.digestUsage');
}

/** The columns of `digest list`, in order: a catalog word each. */
const COLUMNS = ['platform', 'team', 'channel', 'topic', 'days', 'time', 'zone', 'next', 'last'] as const;

async function list(app: App, args: string[], m: Messages): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean', default: false } } });
  const subs = await app.digests.all();
  const now = app.now();
  if (values.json) {
    process.stdout.write(`${JSON.stringify(subs.map((sub) => subscriptionJson(app, sub, now)), null, 2)}\n`);
    return 0;
  }
  if (subs.length === 0) {
    process.stderr.write(`${m.t('cli.digest.none')}\n`);
    return 0;
  }
  const rows = subs.map((sub): Record<(typeof COLUMNS)[number], string> => {
    const next = sub.status === 'active' ? nextSlot(sub, now) : undefined;
    return {
      platform: sub.platform,
      team: sub.workspace,
      channel: sub.channel,
      topic: subscriptionLabel(app.taxonomy, sub, m),
      days: m.t(sub.days === 'weekdays' ? 'digest.subscribe.days.weekdays' : 'digest.subscribe.days.daily'),
      time: sub.time,
      zone: sub.timezone,
      next: sub.status === 'paused' ? m.t('cli.digest.paused') : next ? localTime(next, sub.timezone) : '',
      last: sub.lastSlot ? localTime(new Date(sub.lastSlot), sub.timezone) : m.t('cli.digest.never'),
    };
  });
  const header = Object.fromEntries(COLUMNS.map((c) => [c, m.t(`cli.digest.column.${c}`)])) as Record<(typeof COLUMNS)[number], string>;
  const table = [header, ...rows];
  // Padded by display columns, so Chinese headings and topic names line up too.
  const widths = COLUMNS.map((c) => Math.max(...table.map((row) => displayWidth(row[c]))));
  for (const row of table) {
    const cells = COLUMNS.map((c, i) => (i === COLUMNS.length - 1 ? row[c] : row[c] + ' '.repeat(widths[i]! - displayWidth(row[c]))));
    process.stdout.write(`${cells.join('  ').trimEnd()}\n`);
  }
  return 0;
}

/** `digest list --json`: one object a subscription, the same whatever the terminal's language. */
function subscriptionJson(app: App, sub: Subscription, now: Date) {
  const next = sub.status === 'active' ? nextSlot(sub, now) : undefined;
  return {
    id: sub.id,
    platform: sub.platform,
    team: sub.workspace,
    channel: sub.channel,
    query: sub.query,
    topic: subscriptionLabel(app.taxonomy, sub, messages('en')),
    days: sub.days,
    time: sub.time,
    timezone: sub.timezone,
    count: sub.count,
    fill: sub.fill,
    status: sub.status,
    ...(sub.status === 'paused' && { pausedReason: pausedReasonText(sub.pausedReason, messages('en')) }),
    nextRun: next?.toISOString() ?? null,
    lastSent: sub.lastSlot ?? null,
    createdAt: sub.createdAt,
  };
}

/** An instant as the subscription's clock shows it: `2026-12-04 09:00`. */
function localTime(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
