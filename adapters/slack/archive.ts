/**
 * A channel's archive on Slack: the paper links members post in channels the bot is in are
 * recorded as shared by them, from two events that may both come for one message: `message`
 * (message.channels, message.groups; channels:history, groups:history) and `link_shared` (for the
 * unfurl domains, links:read). Both name the message by its channel and timestamp, so the same
 * message is one share however many events tell of it. Bots' messages, edits and deletions are no
 * shares; nor are DMs. `/library archive off` stops it for a channel (the core checks).
 */
import type { App as BoltApp } from '@slack/bolt';
import type { App } from '../../src/app.js';
import { recordShares } from '../../src/commands/archive.js';
import type { CommandContext } from '../../src/commands/types.js';
import { channelKind, sharedLinkUrl } from './incoming.js';
import { memberInfo } from './member.js';

/** Message subtypes a member writes (none, or a thread reply also sent to the channel). */
const MEMBER_SUBTYPES = new Set([undefined, 'thread_broadcast', 'file_share']);
/** Longest message text looked at (Slack's own limit is 40,000). */
const TEXT_MAX = 8000;

/** What the archive needs of a message or a link_shared event. */
export interface SlackShare {
  team: string | undefined;
  channel: string;
  user: string;
  /** The message's timestamp: with the channel, its key. */
  ts: string;
  links: string[];
}

/**
 * The links of a `message` event as the archive reads them, or undefined when it is none of the
 * archive's business (a bot, an edit, a DM, no link).
 * @example messageShare({ type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', ts: '1.2', text: 'see <https://arxiv.org/abs/1706.03762>' }, 'T1')?.links // ['https://arxiv.org/abs/1706.03762']
 */
export function messageShare(event: Record<string, unknown>, team: string | undefined): SlackShare | undefined {
  const { channel, user, ts, text, subtype, bot_id, channel_type } = event;
  if (typeof channel !== 'string' || typeof user !== 'string' || typeof ts !== 'string' || typeof text !== 'string') return undefined;
  if (!MEMBER_SUBTYPES.has(subtype as string | undefined) || bot_id !== undefined) return undefined;
  if (channel_type === 'im' || channel_type === 'mpim' || channelKind(channel) !== 'channel') return undefined;
  const links = slackLinks(text);
  if (links.length === 0) return undefined;
  return { team: typeof event.team === 'string' ? event.team : team, channel, user, ts, links };
}

/**
 * The links in a message's text as Slack writes them (`<https://…>` or `<https://…|label>`).
 * @example slackLinks('read <https://arxiv.org/abs/1706.03762|arxiv.org/abs/1706.03762> &amp; <@U1>') // ['https://arxiv.org/abs/1706.03762']
 */
export function slackLinks(text: string): string[] {
  const found = [...text.slice(0, TEXT_MAX).matchAll(/<(https?:\/\/[^|<>\s]+)(?:\|[^<>]*)?>/gi)].map((m) => sharedLinkUrl(m[1]!));
  return [...new Set(found)];
}

/**
 * Records the paper links of members' messages in their channel's archive (`message` events).
 * `link_shared` events are recorded by {@link recordSlackShare}, from the unfurl handler.
 */
export function registerArchive(bolt: BoltApp, app: App): void {
  bolt.event('message', async ({ event, body, client }) => {
    const share = messageShare(event as unknown as Record<string, unknown>, (body as { team_id?: string }).team_id);
    if (!share) return;
    const member = await memberInfo(client, share.user, app, { team: share.team });
    await recordSlackShare(app, share, member.name).catch((err: unknown) => app.log.warn({ err, platform: 'slack', channel: share.channel }, 'Slack: could not record the paper links of a message'));
  });
}

/** Records one message's links as shared by its author; resolves how many shares were new. */
export async function recordSlackShare(app: App, share: SlackShare, name?: string): Promise<number> {
  const ctx: CommandContext = app.context(
    'slack',
    { id: share.user, ...(name && { name }) },
    { channel: { id: share.channel, kind: channelKind(share.channel) }, ...(share.team && { workspace: { id: share.team } }) },
  );
  return recordShares(ctx, share.links, `${share.channel}:${share.ts}`);
}
