/**
 * Buttons and menus (block_actions). Every action is acknowledged at once, then:
 * - Prev/Next/open run the core's action handle and update the message in place: through the
 *   response_url for an ephemeral message, with chat.update for a message in the channel;
 * - "Share in channel" makes the reply again and posts it to the channel (chat.postMessage, or
 *   the response_url where the bot may not post), then removes the private copy;
 * - a reply the core marks ephemeral (an expired search, a broken button) goes to the clicker
 *   as a new private message, leaving the message they clicked as it was.
 */
import type { App as BoltApp, BlockAction, BlockElementAction, RespondFn, webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { App } from '../../src/app.js';
import type { CommandContext } from '../../src/commands/types.js';
import { messageReply, type Reply } from '../../src/reply.js';
import { afterPendingAcks } from './commands.js';
import { channelKind, channelName, decodeOrigin, encodeOrigin } from './incoming.js';
import { memberContext, memberInfo } from './member.js';
import { ACTION_PREFIX, LINK_ID, SHARE_ID, SHARED_BY_BLOCK_ID, renderReply } from './render.js';

interface Container {
  is_ephemeral?: boolean;
  channel_id?: string;
  message_ts?: string;
}

interface Click {
  app: App;
  log: Logger;
  body: BlockAction;
  /** The button's value or the menu choice's: an action handle, or a Share button's origin. */
  value: string;
  ctx: CommandContext;
  respond: RespondFn;
  client: webApi.WebClient;
}

export function registerActions(bolt: BoltApp, app: App, log: Logger): void {
  // Every block_actions payload, matched by its type alone: Bolt's own action_id pattern would
  // throw on an action_id that is no text. What the click carries is read here, where anything
  // but one of our elements with a text value is a button that does nothing (any more).
  bolt.action<BlockAction>({ type: 'block_actions' }, async ({ ack, body, action, respond, client }) => {
    await ack();
    const id: unknown = (action as { action_id?: unknown } | undefined)?.action_id;
    // A link button opens its URL in the browser; Slack only wants the acknowledgement.
    if (typeof id === 'string' && id.startsWith(LINK_ID)) return;
    const value = typeof id === 'string' && id.startsWith(ACTION_PREFIX) ? (valueOf(action) ?? '') : '';
    await afterPendingAcks();
    const channelId = body.channel?.id ?? (body.container as Container).channel_id;
    const name = body.channel?.name;
    const known = channelName(name);
    const channel = channelId ? { channel: { id: channelId, ...(known && { name: known }), kind: channelKind(channelId, name) } } : {};
    // Lists are keyed by the workspace: a click names it (`team`; `user.team_id` in a shared channel's org).
    const team = body.team?.id ?? body.user.team_id;
    // The clicker's language; changing a digest also needs to know whether they are an admin (asked afresh).
    const member = await memberInfo(client, body.user.id, app, { team, fresh: value.startsWith('digest:') });
    const ctx = app.context(
      'slack',
      { id: body.user.id, name: member.name ?? body.user.username ?? body.user.name },
      { ...channel, ...(team && { workspace: { id: team } }), ...memberContext(member) },
    );
    const click: Click = { app, log, body, value, ctx, respond, client };
    await (id === SHARE_ID ? share(click) : act(click));
  });
}

/** Makes the reply again, posts it to the channel, and removes the private copy. */
async function share({ app, log, body, value, ctx, respond, client }: Click): Promise<void> {
  const origin = decodeOrigin(value);
  const reply = origin
    ? await (origin.kind === 'run' ? app.registry.runText(ctx, origin.command, origin.text) : app.registry.act(ctx, origin.handle))
    : messageReply(ctx.i18n.t('slack.brokenShare'), { ephemeral: true, locale: ctx.i18n.locale });
  if (reply.ephemeral) return privately(respond, reply);
  const message = renderReply(reply, { sharedBy: body.user.id });
  try {
    if (!ctx.channel) throw new Error('block_actions payload without a channel');
    await client.chat.postMessage({ channel: ctx.channel.id, ...message, unfurl_links: false, unfurl_media: false });
  } catch (err) {
    // A private channel or a DM the bot is not in: the response_url may still post there.
    log.info({ err, channel: ctx.channel?.id }, 'chat.postMessage failed; sharing through the response_url');
    await respond({ response_type: 'in_channel', replace_original: false, ...message });
  }
  await respond({ delete_original: true });
}

/** Runs a button's or a menu choice's action handle and shows the reply in place of the message. */
async function act({ app, log, body, value, ctx, respond, client }: Click): Promise<void> {
  const reply = await app.registry.act(ctx, value);
  if (reply.ephemeral) return privately(respond, reply, reply.shareable ? encodeOrigin({ kind: 'act', handle: value }) : undefined);
  const container = body.container as Container;
  if (container.is_ephemeral !== false || !container.channel_id || !container.message_ts) {
    const share = reply.shareable ? encodeOrigin({ kind: 'act', handle: value }) : undefined;
    await respond({ response_type: 'ephemeral', replace_original: true, ...renderReply(reply, share === undefined ? {} : { share }) });
    return;
  }
  const sharedBy = sharedByOf(body.message);
  const message = renderReply(reply, sharedBy ? { sharedBy } : {});
  try {
    await client.chat.update({ channel: container.channel_id, ts: container.message_ts, ...message });
  } catch (err) {
    // Not the bot's own message (e.g. shared through a response_url): replace it through the response_url.
    log.info({ err, channel: container.channel_id }, 'chat.update failed; updating through the response_url');
    await respond({ replace_original: true, ...message });
  }
}

/** The action handle (or Share origin) a button or a menu choice carries, if it is text. */
function valueOf(action: BlockElementAction): string | undefined {
  const element = action as { type?: unknown; value?: unknown; selected_option?: unknown };
  const value = element.type === 'button' ? element.value : element.type === 'static_select' ? (element.selected_option as { value?: unknown } | null | undefined)?.value : undefined;
  return typeof value === 'string' ? value : undefined;
}

async function privately(respond: RespondFn, reply: Reply, share?: string): Promise<void> {
  await respond({ response_type: 'ephemeral', replace_original: false, ...renderReply(reply, share === undefined ? {} : { share }) });
}

/** Who shared a channel message, read back from its "Shared by <@U…>" line. */
export function sharedByOf(message: BlockAction['message']): string | undefined {
  const blocks: unknown = message?.blocks;
  if (!Array.isArray(blocks)) return undefined;
  const line = blocks.find((b: { block_id?: unknown }) => b?.block_id === SHARED_BY_BLOCK_ID) as { elements?: Array<{ text?: unknown }> } | undefined;
  const text = line?.elements?.[0]?.text;
  return typeof text === 'string' ? /<@([UW][A-Z0-9]{2,20})>/.exec(text)?.[1] : undefined;
}
