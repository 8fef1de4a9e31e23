/**
 * /digest subscribe | list | unsubscribe: a channel's daily digest of a topic's (or a search's)
 * new papers, at a time of day in a time zone.
 */
import { z } from 'zod';
import { formatDate } from '../digest/compose.js';
import { canonicalTimeZone, nextSlot, parseTimeOfDay } from '../digest/schedule.js';
import type { ChatPlatform, Subscription } from '../digest/store.js';
import { UserError } from '../errors.js';
import { parsePaperRef } from '../papers/ids.js';
import { action, messageReply, type Reply } from '../reply.js';
import { parseOptionText } from './optionText.js';
import { shorten } from './results.js';
import { defineCommand, defineSubcommand, type BotAccess, type CommandContext } from './types.js';

export const DEFAULT_TIME = '09:00';
export const DEFAULT_COUNT = 5;
export const MAX_COUNT = 20;

const subscribeOptions = z.object({
  topic: z
    .string()
    .trim()
    .min(1, 'Say what to follow: topic:llm, topic:"Theory · Learning Theory", or search words.')
    .max(200, 'A topic or query is at most 200 characters.')
    .describe('A topic ("Deep Learning · Large Language Models", "llm") or search words')
    .meta({ autocomplete: true }),
  time: z.string().trim().max(20).optional().describe('Time of day, HH:MM (default 09:00)'),
  timezone: z.string().trim().max(64).optional().describe('IANA time zone such as Europe/Berlin (default: yours, else UTC)'),
  days: z.enum(['daily', 'weekdays'], 'days: use daily or weekdays.').optional().describe('daily (default) or weekdays'),
  count: z.coerce
    .number('count: use a number of papers from 1 to 20.')
    .int('count: use a whole number of papers from 1 to 20.')
    .min(1, 'count: at least 1 paper.')
    .max(MAX_COUNT, `count: at most ${MAX_COUNT} papers.`)
    .optional()
    .describe('Papers per digest (default 5)'),
  fill: z.boolean('fill: use yes or no.').optional().describe('On days with nothing new, send the best papers not sent yet (default no)'),
});

const unsubscribeOptions = z.object({
  topic: z.string().trim().max(200).optional().describe('Which digest, when the channel has several').meta({ autocomplete: true }),
});

const subscribe = defineSubcommand({
  name: 'subscribe',
  description: "Post a topic's new papers here every day",
  options: subscribeOptions,
  fromText(text) {
    const { fill, ...rest } = parseOptionText(text, Object.keys(subscribeOptions.shape));
    return { ...(rest as unknown as z.input<typeof subscribeOptions>), ...(fill !== undefined && { fill: yesNo(fill) }) };
  },
  run(ctx, args) {
    const { platform, channel } = where(ctx);
    const cannotPost = whyNoDigestsHere(ctx);
    if (cannotPost) throw new UserError(cannotPost);
    const target = resolveTarget(ctx, args.topic);
    const time = args.time === undefined ? DEFAULT_TIME : parseTimeOfDay(args.time);
    if (!time) throw new UserError(`time: "${shorten(args.time ?? '', 20)}" is not a time of day. Use HH:MM in 24 hours, like 09:00 or 17:30 (9am works too).`);
    const zoneInput = args.timezone ?? ctx.user.timezone ?? 'UTC';
    const timezone = canonicalTimeZone(zoneInput);
    if (!timezone) {
      throw new UserError(
        `timezone: "${shorten(zoneInput, 40)}" is not a time zone. Use an IANA name such as Europe/Berlin, America/New_York, Asia/Tokyo or UTC (https://en.wikipedia.org/wiki/List_of_tz_database_time_zones).`,
      );
    }
    const existing = ctx.digests.forChannel(platform, channel).find((s) => s.query === target.query);
    requirePermission(ctx, existing);
    const sub = ctx.digests.subscribe({
      platform,
      workspace: ctx.workspace?.id ?? '',
      channel,
      query: target.query,
      label: target.label,
      time,
      timezone,
      days: args.days ?? 'daily',
      count: args.count ?? DEFAULT_COUNT,
      fill: args.fill ?? false,
      createdBy: existing?.createdBy ?? ctx.user.id,
      createdAt: existing?.createdAt ?? ctx.now().toISOString(),
    });
    const text = `${existing ? 'Updated' : 'Subscribed'}: ${describe(sub, ctx.now())}`;
    return { fallback: text, blocks: [{ kind: 'text', text }] };
  },
});

const list = defineSubcommand({
  name: 'list',
  description: "This channel's digests",
  options: z.object({}),
  fromText: () => ({}),
  run: (ctx) => listReply(ctx),
});

const unsubscribe = defineSubcommand({
  name: 'unsubscribe',
  description: 'Stop a digest in this channel',
  options: unsubscribeOptions,
  fromText: (text) => parseOptionText(text, ['topic']),
  run(ctx, { topic }) {
    const { platform, channel } = where(ctx);
    const subs = ctx.digests.forChannel(platform, channel);
    if (subs.length === 0) throw new UserError(noDigestsHere(ctx) ?? 'This channel has no digests. Start one with /digest subscribe topic:<topic>.');
    let chosen: Subscription[] = subs;
    if (topic) {
      const typed = topic.replace(/\s+/g, ' ').trim().toLowerCase();
      chosen = subs.filter((s) => s.query.toLowerCase() === typed || s.label.toLowerCase() === typed || s.label.toLowerCase() === `“${typed}”`);
      if (chosen.length === 0) {
        const found = ctx.library.topics.resolve(topic);
        if ('topic' in found) chosen = subs.filter((s) => s.query === `topic:"${found.topic.id}"`);
      }
      if (chosen.length === 0) throw new UserError(`No digest here follows "${shorten(topic, 60)}". /digest list shows them.`);
    }
    if (chosen.length > 1) {
      return {
        fallback: 'Which digest should stop?',
        blocks: [{ kind: 'text', text: 'This channel has several digests. Which one should stop?' }],
        menu: { placeholder: 'Stop a digest…', choices: chosen.map((s) => ({ label: shorten(s.label, 100), action: action('digest', 'stop', s.id) })) },
        ephemeral: true,
      };
    }
    return stop(ctx, chosen[0]!);
  },
});

export const digestCommand = defineCommand({
  name: 'digest',
  description: 'Daily digests of new papers in this channel',
  options: z.object({}),
  examples: ['/digest subscribe topic:llm time:08:30 timezone:Europe/Paris', '/digest list', '/digest unsubscribe topic:llm'],
  permission: 'manage-channel',
  subcommands: [subscribe, list, unsubscribe],
  fromText: () => ({}),
  run: (ctx) => listReply(ctx),
  autocomplete(ctx, option, value) {
    if (option !== 'topic') return [];
    return ctx.library.topics.suggest(value, 25).map((t) => ({ name: shorten(t.label, 100), value: t.label.slice(0, 100) }));
  },
  actions: {
    stop(ctx, [id]) {
      const sub = ctx.digests.get(Number(id));
      const { platform, channel } = where(ctx);
      if (!sub || sub.platform !== platform || sub.channel !== channel) throw new UserError('That digest is already gone. /digest list shows what is left.');
      return stop(ctx, sub);
    },
  },
});

function stop(ctx: CommandContext, sub: Subscription): Reply {
  requirePermission(ctx, sub);
  ctx.digests.unsubscribe(sub.id);
  return messageReply(`Stopped the daily digest of ${sub.label} in this channel.`);
}

function listReply(ctx: CommandContext): Reply {
  const { platform, channel } = where(ctx);
  const subs = ctx.digests.forChannel(platform, channel);
  if (subs.length === 0) {
    return messageReply(noDigestsHere(ctx) ?? 'This channel has no digests yet. Start one with /digest subscribe topic:llm time:09:00 timezone:Europe/Berlin', { ephemeral: true });
  }
  // Listed even where the bot can no longer post (permissions taken away, or set up before this check), with why they cannot arrive.
  const cannotPost = whyNoDigestsHere(ctx);
  return {
    fallback: `Digests here: ${subs.map((s) => s.label).join('; ')}${cannotPost ? `. ${cannotPost}` : ''}`,
    blocks: [
      { kind: 'heading', text: 'Digests in this channel' },
      ...(cannotPost ? [{ kind: 'text' as const, text: cannotPost }] : []),
      { kind: 'list', items: subs.map((s) => ({ text: s.label, detail: describeWithRuns(ctx, s) })) },
    ],
    ephemeral: true,
  };
}

/** One line about a subscription: what, when, and whether it is paused. */
function describe(sub: Subscription, now: Date): string {
  const next = nextSlot(sub, now);
  const when = `${sub.days === 'weekdays' ? 'weekdays' : 'every day'} at ${sub.time} ${sub.timezone}`;
  const size = `up to ${sub.count} paper${sub.count === 1 ? '' : 's'}${sub.fill ? ', or the best unsent ones on quiet days' : ''}`;
  const status =
    sub.status === 'paused' ? ` Paused: ${sub.pausedReason ?? 'delivery failed'}` : next ? ` Next: ${formatDate(next, sub.timezone)}, ${sub.time}.` : '';
  return `${sub.label}, ${when}, ${size}.${status}`;
}

/** A subscription's line, with a digest still being retried and why. */
function describeWithRuns(ctx: CommandContext, sub: Subscription): string {
  const retrying = ctx.digests.openRuns(sub.id).find((r) => r.lastError);
  const problem = retrying ? ` Retrying the digest of ${formatDate(new Date(retrying.slot), sub.timezone)}: ${retrying.lastError}.` : '';
  return `${describe(sub, ctx.now())}${problem}`;
}

function where(ctx: CommandContext): { platform: ChatPlatform; channel: string } {
  if (ctx.platform === 'terminal' || !ctx.channel) {
    throw new UserError('Digests are posted to Discord or Slack channels: run /digest in the channel that should get them.');
  }
  return { platform: ctx.platform, channel: ctx.channel.id };
}

/** The permissions a digest needs from the bot in its channel, as the platforms that have them name them (Discord). */
const DIGEST_PERMISSIONS = [
  { name: 'View Channel', granted: (bot: BotAccess) => bot.canView },
  { name: 'Send Messages', granted: (bot: BotAccess) => bot.canSend },
  // Digests are embeds, and Discord drops a bot's embeds where it lacks Embed Links.
  { name: 'Embed Links', granted: (bot: BotAccess) => bot.canEmbed },
] as const;

/**
 * Why a digest could never be posted where the command runs, with where to run it instead; or
 * undefined when it can, as far as the platform says (what it does not say is not held against
 * it). The one place that decides where digests may be set up.
 * @example whyNoDigestsHere({ ...ctx, channel: { id: 'D1', kind: 'dm' } }) // 'Digests are posted in channels, and this is a direct message. …'
 */
export function whyNoDigestsHere(ctx: Pick<CommandContext, 'channel' | 'bot'>): string | undefined {
  if (ctx.channel?.kind === 'dm') return 'Digests are posted in channels, and this is a direct message. Run /digest subscribe in the channel that should get the papers.';
  if (ctx.channel?.kind === 'group-dm') return 'Digests are posted in channels, and this is a group conversation. Run /digest subscribe in the channel that should get the papers.';
  const bot = ctx.bot ?? {};
  if (bot.inServer === false) {
    return 'Paper Scout is not a member of this server (you are using it as an app installed on your own account), so it cannot post digests here. Ask a server admin to add Paper Scout to the server and run /digest subscribe again, or run it in a server that has Paper Scout.';
  }
  const missing = DIGEST_PERMISSIONS.filter((p) => p.granted(bot) === false).map((p) => p.name);
  if (missing.length === 0) return undefined;
  return `Paper Scout cannot post digests in this channel: it lacks the ${listOf(missing)} permission${missing.length === 1 ? '' : 's'} here. Ask a server admin to give Paper Scout ${listOf(DIGEST_PERMISSIONS.map((p) => p.name))} in this channel (digests are embeds), then run /digest subscribe again.`;
}

/** What to say where there are no digests and none could be set up; undefined where one could. */
function noDigestsHere(ctx: CommandContext): string | undefined {
  if (ctx.channel?.kind === 'dm' || ctx.channel?.kind === 'group-dm') {
    return 'Digests are posted in channels, so this conversation has none. Run /digest list in a channel to see its digests, or /digest subscribe there to start one.';
  }
  return whyNoDigestsHere(ctx);
}

/** "A", "A and B", "A, B and C". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Discord: the Manage Channels permission. Slack: workspace admins, and whoever subscribed. */
function requirePermission(ctx: CommandContext, sub: Subscription | undefined): void {
  if (ctx.platform === 'discord' && ctx.member?.canManageChannel !== true) {
    throw new UserError('Only members who can manage this channel (the Manage Channels permission) can change its digests.');
  }
  if (ctx.platform === 'slack' && sub && ctx.member?.isAdmin !== true && sub.createdBy !== ctx.user.id) {
    throw new UserError('Only workspace admins and the person who set up this digest can change it.');
  }
}

function yesNo(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['yes', 'y', 'true', 'on', '1'].includes(v)) return true;
  if (['no', 'n', 'false', 'off', '0'].includes(v)) return false;
  throw new UserError(`fill: use yes or no, not "${shorten(value, 20)}".`);
}

/** A topic of the taxonomy when the words name one, else a search. */
function resolveTarget(ctx: CommandContext, input: string): { query: string; label: string } {
  if (parsePaperRef(input)) {
    throw new UserError('A digest follows a topic or a search, not one paper: try topic:llm or some words, e.g. topic:"diffusion models".');
  }
  const found = ctx.library.topics.resolve(input);
  if ('topic' in found) return { query: `topic:"${found.topic.id}"`, label: found.topic.label };
  const words = input.replace(/\s+/g, ' ').trim();
  if (ctx.library.search(words, { limit: 1 }).hits.length === 0) {
    const hint = found.suggestions.slice(0, 3).map((t) => `"${t.label}"`).join(', ');
    throw new UserError(`No topic or papers match "${shorten(words, 60)}".${hint ? ` Did you mean ${hint}?` : ' /topic lists the topics.'}`);
  }
  return { query: words, label: `“${shorten(words, 80)}”` };
}
