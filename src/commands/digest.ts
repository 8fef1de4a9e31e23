/**
 * /digest subscribe | list | unsubscribe: a channel's daily digest of a topic's (or a search's)
 * new papers, at a time of day in a time zone; with `source:library`, the new papers (of a topic,
 * if given) ranked by how much they are like the channel's reading list and shared papers.
 */
import { z } from 'zod';
import { subscriptionLabel } from '../digest/compose.js';
import { libraryFilters, libraryQuery } from '../digest/source.js';
import { canonicalTimeZone, nextSlot, parseTimeOfDay } from '../digest/schedule.js';
import { pausedReasonText, type ChatPlatform, type Subscription } from '../store/digests.js';
import { UserError } from '../errors.js';
import { msg, type Message } from '../i18n/index.js';
import { parsePaperRef } from '../papers/ids.js';
import { action, messageReply, type Reply } from '../reply.js';
import { shorten } from '../text.js';
import { parseOptionText } from './optionText.js';
import { channelSettingRefusal } from './permissions.js';
import { MAX_CHOICE_LENGTH, defineCommand, defineSubcommand, type BotAccess, type CommandContext } from './types.js';

export const DEFAULT_TIME = '09:00';
export const DEFAULT_COUNT = 5;
export const MAX_COUNT = 20;
/** The values of `days:`; their names in each language are `digest.subscribe.days.<value>`. */
export const DIGEST_DAYS = ['daily', 'weekdays'] as const;

/** The values of `source:`: papers ranked by a topic's (or words') search, or by the channel's library. */
export const DIGEST_SOURCES = ['topic', 'library'] as const;

const subscribeOptions = z.object({
  topic: z
    .string()
    .trim()
    .min(1, 'digest.topicEmpty')
    .max(200, 'digest.topicTooLong')
    .meta({ autocomplete: true })
    .optional(),
  source: z.enum(DIGEST_SOURCES, 'digest.badSource').optional(),
  time: z.string().trim().max(20).optional(),
  timezone: z.string().trim().max(64).optional(),
  days: z.enum(DIGEST_DAYS, 'digest.badDays').optional(),
  count: z.coerce.number('digest.badCount').int('digest.badCountWhole').min(1, 'digest.countMin').max(MAX_COUNT, 'digest.countMax').optional(),
  fill: z.boolean('digest.badFill').optional(),
});

const unsubscribeOptions = z.object({
  topic: z.string().trim().max(200).optional().meta({ autocomplete: true }),
  source: z.enum(DIGEST_SOURCES, 'digest.badSource').optional(),
});

const subscribe = defineSubcommand({
  name: 'subscribe',
  options: subscribeOptions,
  fromText(text) {
    const { fill, ...rest } = parseOptionText(text, Object.keys(subscribeOptions.shape));
    return { ...(rest as unknown as z.input<typeof subscribeOptions>), ...(fill !== undefined && { fill: yesNo(fill) }) };
  },
  async run(ctx, args) {
    const { platform, channel } = where(ctx);
    const cannotPost = whyNoDigestsHere(ctx);
    if (cannotPost) throw new UserError(cannotPost);
    const target = args.source === 'library' ? await libraryTarget(ctx, args.topic) : await resolveTarget(ctx, args.topic ?? '');
    const time = args.time === undefined ? DEFAULT_TIME : parseTimeOfDay(args.time);
    if (!time) throw new UserError('digest.badTime', { value: shorten(args.time ?? '', 20) });
    const zoneInput = args.timezone ?? ctx.user.timezone ?? 'UTC';
    const timezone = canonicalTimeZone(zoneInput);
    if (!timezone) throw new UserError('digest.badZone', { value: shorten(zoneInput, 40) });
    const existing = (await ctx.digests.forChannel(platform, channel)).find((s) => s.query === target.query);
    requirePermission(ctx, existing);
    const sub = await ctx.digests.subscribe({
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
      // Digests speak the language of whoever set them up last, else the server's.
      ...(ctx.locale ? { locale: ctx.locale } : existing?.locale ? { locale: existing.locale } : ctx.workspace?.locale ? { locale: ctx.workspace.locale } : {}),
    });
    const text = ctx.i18n.t(existing ? 'digest.updated' : 'digest.subscribed', { description: describe(ctx, sub) });
    return { fallback: text, blocks: [{ kind: 'text', text }] };
  },
});

const list = defineSubcommand({
  name: 'list',
  options: z.object({}),
  fromText: () => ({}),
  run: (ctx) => listReply(ctx),
});

const unsubscribe = defineSubcommand({
  name: 'unsubscribe',
  options: unsubscribeOptions,
  fromText: (text) => parseOptionText(text, ['topic', 'source']),
  async run(ctx, { topic, source }) {
    const { platform, channel } = where(ctx);
    const subs = await ctx.digests.forChannel(platform, channel);
    if (subs.length === 0) throw new UserError(noDigestsHere(ctx) ?? msg('digest.none'));
    // "library" alone, unless a digest is named so, means source:library.
    const typed = topic?.replace(/\s+/g, ' ').trim().toLowerCase();
    const byLibrary = source ?? (typed === 'library' && !subs.some((s) => namesOf(ctx, s).includes(typed)) ? 'library' : undefined);
    const searched = byLibrary === undefined || typed !== 'library' ? typed : undefined;
    let chosen = byLibrary === undefined ? subs : subs.filter((s) => (libraryFilters(s.query) !== undefined) === (byLibrary === 'library'));
    if (searched) {
      const named = chosen.filter((s) => namesOf(ctx, s).some((n) => n === searched || n === `“${searched}”`));
      // A topic as typed, less its words ("diffusion -medical"), as subscribe saved it.
      const { rest, exclusions } = splitExclusions(searched);
      const found = named.length > 0 ? undefined : ctx.library.topics.resolve(rest === '' ? searched : rest);
      const less = exclusions.length > 0 ? ` ${exclusions.join(' ')}` : '';
      chosen = found && 'topic' in found ? chosen.filter((s) => (libraryFilters(s.query) ?? s.query).toLowerCase() === `topic:"${found.topic.id}"${less}`) : named;
    }
    if (chosen.length === 0) throw new UserError('digest.noneFollows', { topic: shorten(topic ?? byLibrary ?? '', 60) });
    if (chosen.length > 1) {
      return {
        fallback: ctx.i18n.t('digest.whichFallback'),
        blocks: [{ kind: 'text', text: ctx.i18n.t('digest.which') }],
        menu: {
          placeholder: ctx.i18n.t('digest.stopMenu'),
          choices: chosen.map((s) => ({ label: shorten(subscriptionLabel(ctx.library.taxonomy, s, ctx.i18n), 100), action: action('digest', 'stop', s.id) })),
        },
        ephemeral: true,
      };
    }
    return stop(ctx, chosen[0]!);
  },
});

export const digestCommand = defineCommand({
  name: 'digest',
  options: z.object({}),
  permission: 'manage-channel',
  subcommands: [subscribe, list, unsubscribe],
  fromText: () => ({}),
  run: (ctx) => listReply(ctx),
  autocomplete(ctx, option, value) {
    if (option !== 'topic') return [];
    return ctx.library.topics.suggest(value, 25).map((t) => {
      const label = ctx.library.taxonomy.label(t, ctx.i18n.dataLocale);
      return { name: shorten(label, MAX_CHOICE_LENGTH), value: label.slice(0, MAX_CHOICE_LENGTH) };
    });
  },
  actions: {
    async stop(ctx, [id]) {
      const sub = await ctx.digests.get(Number(id));
      const { platform, channel } = where(ctx);
      if (!sub || sub.platform !== platform || sub.channel !== channel) throw new UserError('digest.gone');
      return stop(ctx, sub);
    },
  },
});

/** What a member may call a digest by, lower-cased: its search, its label, its label as shown. */
function namesOf(ctx: CommandContext, s: Subscription): string[] {
  return [s.query, libraryFilters(s.query) ?? s.query, s.label, subscriptionLabel(ctx.library.taxonomy, s, ctx.i18n)].map((n) => n.toLowerCase());
}

async function stop(ctx: CommandContext, sub: Subscription): Promise<Reply> {
  requirePermission(ctx, sub);
  await ctx.digests.unsubscribe(sub.id);
  return messageReply(ctx.i18n.t('digest.stopped', { label: subscriptionLabel(ctx.library.taxonomy, sub, ctx.i18n) }));
}

async function listReply(ctx: CommandContext): Promise<Reply> {
  const { platform, channel } = where(ctx);
  const subs = await ctx.digests.forChannel(platform, channel);
  if (subs.length === 0) return messageReply(ctx.i18n.text(noDigestsHere(ctx) ?? msg('digest.noneYet')), { ephemeral: true });
  const label = (s: Subscription) => subscriptionLabel(ctx.library.taxonomy, s, ctx.i18n);
  const labels = subs.map(label).join('; ');
  // Listed even where the bot can no longer post (permissions taken away, or set up before this check), with why they cannot arrive.
  const cannotPost = whyNoDigestsHere(ctx);
  const details = await Promise.all(subs.map((s) => describeWithRuns(ctx, s)));
  return {
    fallback: cannotPost ? ctx.i18n.t('digest.listFallbackCannotPost', { labels, reason: [cannotPost] }) : ctx.i18n.t('digest.listFallback', { labels }),
    blocks: [
      { kind: 'heading', text: ctx.i18n.t('digest.listHeading') },
      ...(cannotPost ? [{ kind: 'text' as const, text: ctx.i18n.text(cannotPost) }] : []),
      { kind: 'list', items: subs.map((s, i) => ({ text: label(s), detail: details[i]! })) },
    ],
    ephemeral: true,
  };
}

/** One line about a subscription: what, when, and whether it is paused. */
function describe(ctx: CommandContext, sub: Subscription): string {
  const m = ctx.i18n;
  const next = nextSlot(sub, ctx.now());
  const when = m.t(sub.days === 'weekdays' ? 'digest.when.weekdays' : 'digest.when.daily', { time: sub.time, timezone: sub.timezone });
  const size = m.t(sub.fill ? 'digest.sizeFill' : 'digest.size', { count: sub.count });
  const status =
    sub.status === 'paused'
      ? m.t('digest.paused', { reason: pausedReasonText(sub.pausedReason, m) })
      : next
        ? m.t('digest.next', { date: m.date(next, sub.timezone), time: sub.time })
        : '';
  return m.t('digest.summary', { label: subscriptionLabel(ctx.library.taxonomy, sub, m), when, size, status });
}

/** A subscription's line, with a digest still being retried and why. */
async function describeWithRuns(ctx: CommandContext, sub: Subscription): Promise<string> {
  const retrying = (await ctx.digests.openRuns(sub.id)).find((r) => r.lastError);
  const problem = retrying ? ctx.i18n.t('digest.retrying', { date: ctx.i18n.date(new Date(retrying.slot), sub.timezone), error: retrying.lastError ?? '' }) : '';
  return `${describe(ctx, sub)}${problem}`;
}

function where(ctx: CommandContext): { platform: ChatPlatform; channel: string } {
  if (ctx.platform === 'terminal' || !ctx.channel) {
    throw new UserError('digest.onlyInChannels');
  }
  return { platform: ctx.platform, channel: ctx.channel.id };
}

/** The permissions a digest needs from the bot in its channel, as the platforms that have them name them (Discord). */
const DIGEST_PERMISSIONS = [
  { name: msg('digest.permission.view'), granted: (bot: BotAccess) => bot.canView },
  { name: msg('digest.permission.send'), granted: (bot: BotAccess) => bot.canSend },
  // Digests are embeds, and Discord drops a bot's embeds where it lacks Embed Links.
  { name: msg('digest.permission.embed'), granted: (bot: BotAccess) => bot.canEmbed },
  // A post whose answer was lost is looked for in the channel before it is posted again; without
  // the history Discord shows none, and whether it arrived could not be told (it would be paused).
  { name: msg('digest.permission.history'), granted: (bot: BotAccess) => bot.canReadHistory },
] as const;

/**
 * Why a digest could never be posted where the command runs, with where to run it instead; or
 * undefined when it can, as far as the platform says (what it does not say is not held against
 * it). The one place that decides where digests may be set up.
 * @example whyNoDigestsHere({ ...ctx, channel: { id: 'D1', kind: 'dm' } }) // { key: 'digest.notInDm' }
 */
export function whyNoDigestsHere(ctx: Pick<CommandContext, 'channel' | 'bot'>): Message | undefined {
  if (ctx.channel?.kind === 'dm') return msg('digest.notInDm');
  if (ctx.channel?.kind === 'group-dm') return msg('digest.notInGroupDm');
  const bot = ctx.bot ?? {};
  if (bot.inServer === false) return msg('digest.notInServer');
  const missing = DIGEST_PERMISSIONS.filter((p) => p.granted(bot) === false).map((p) => p.name);
  if (missing.length === 0) return undefined;
  return msg('digest.missingPermissions', {
    missing: { items: missing, type: 'conjunction' },
    count: missing.length,
    all: { items: DIGEST_PERMISSIONS.map((p) => p.name), type: 'conjunction' },
  });
}

/** What to say where there are no digests and none could be set up; undefined where one could. */
function noDigestsHere(ctx: CommandContext): Message | undefined {
  if (ctx.channel?.kind === 'dm' || ctx.channel?.kind === 'group-dm') return msg('digest.noneInConversation');
  return whyNoDigestsHere(ctx);
}

/** Discord: the Manage Channels permission. Slack: workspace admins, and whoever subscribed (permissions.ts). */
function requirePermission(ctx: CommandContext, sub: Subscription | undefined): void {
  const refusal = channelSettingRefusal(ctx, sub && { setBy: sub.createdBy });
  if (refusal === 'needs-manage-channels') throw new UserError('digest.needsManageChannels');
  if (refusal === 'needs-admin') throw new UserError('digest.needsAdmin');
}

function yesNo(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['yes', 'y', 'true', 'on', '1'].includes(v)) return true;
  if (['no', 'n', 'false', 'off', '0'].includes(v)) return false;
  throw new UserError('digest.badFillValue', { value: shorten(value, 20) });
}

/** A topic of the taxonomy when the words name one, else a search. */
/**
 * A digest ranked by the channel's library (`digest/source.ts`): of every new paper, or of a
 * topic's; search words cannot narrow a ranking by likeness, so they are refused.
 */
async function libraryTarget(ctx: CommandContext, topic: string | undefined): Promise<{ query: string; label: string }> {
  if (topic === undefined) return { query: libraryQuery(''), label: '' };
  const found = ctx.library.topics.resolve(topic);
  if (!('topic' in found)) throw new UserError('digest.libraryTopicOnly', { words: shorten(topic, 60) });
  return { query: libraryQuery(`topic:"${found.topic.id}"`), label: found.topic.label };
}

async function resolveTarget(ctx: CommandContext, input: string): Promise<{ query: string; label: string }> {
  if (input.trim() === '') throw new UserError('digest.topicEmpty');
  if (parsePaperRef(input)) {
    throw new UserError('digest.notOnePaper');
  }
  // A topic less some words ("diffusion -medical"): the topic's papers without them.
  const { rest, exclusions } = splitExclusions(input);
  const found = ctx.library.topics.resolve(rest === '' ? input : rest);
  if ('topic' in found) {
    const less = exclusions.length > 0 ? ` ${exclusions.join(' ')}` : '';
    return { query: `topic:"${found.topic.id}"${less}`, label: `${found.topic.label}${less}` };
  }
  const words = input.replace(/\s+/g, ' ').trim();
  if ((await ctx.library.search(words, { limit: 1 })).hits.length === 0) {
    const suggestions = found.suggestions.slice(0, 3).map((t) => msg('search.quoted', { text: t.labels }));
    if (suggestions.length === 0) throw new UserError('digest.noMatch', { words: shorten(words, 60) });
    throw new UserError('digest.noMatchMaybe', { words: shorten(words, 60), suggestions: { items: suggestions, type: 'disjunction' } });
  }
  return { query: words, label: `“${shorten(words, 80)}”` };
}

/** A `-word` or `-"phrase"` of `/paper`'s syntax. */
const EXCLUSION = /(?:^|\s)(-(?:"[^"]*"|[^\s"]+))/g;

/**
 * The exclusions of a digest's topic (`-word`, `-"phrase"`) apart from the rest, which may name
 * a topic. A lone "-" or an unclosed quote stays in the rest.
 * @example splitExclusions('diffusion -medical -"protein folding"') // { rest: 'diffusion', exclusions: ['-medical', '-"protein folding"'] }
 */
export function splitExclusions(input: string): { rest: string; exclusions: string[] } {
  const exclusions = [...input.matchAll(EXCLUSION)].map((m) => m[1]!).filter((e) => e !== '-""');
  const rest = input.replace(EXCLUSION, ' ').replace(/\s+/g, ' ').trim();
  return { rest, exclusions };
}
