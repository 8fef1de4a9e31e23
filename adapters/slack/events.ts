/**
 * Events: mentions and shared links (messages, for the channel's archive: archive.ts).
 * - `app_mention`: slash commands cannot run in threads, so `@Paper Scout <query>` answers in the
 *   mention's thread (or starts one under a top-level mention) with chat.postMessage; a reply
 *   the core marks ephemeral goes to the asker only (chat.postEphemeral, same thread).
 * - `link_shared`: the links go into the channel's archive (archive.ts), and links to papers in the library (arXiv, OpenReview, doi.org, a paper's own page
 *   or pdf) get a compact card through chat.unfurl; an arXiv, DOI or OpenReview link to a paper
 *   the library lacks is looked up (and the paper added) first. The core's command registry
 *   answers each link (`/paper`'s unfurl), under the error policy and metrics of every command: a
 *   failure unfurls as the apology with its reference. Bolt has acknowledged the event before
 *   this runs, so a lookup only delays the card. Other links are left alone.
 */
import type { App as BoltApp } from '@slack/bolt';
import type { App } from '../../src/app.js';
import { messageReply } from '../../src/reply.js';
import { recordSlackShare } from './archive.js';
import { afterPendingAcks } from './commands.js';
import { deliverFile } from './files.js';
import { channelKind, mentionRequest, sharedLinkUrl } from './incoming.js';
import { memberContext, memberInfo } from './member.js';
import { renderReply, renderUnfurlReply, type SlackBlock } from './render.js';

/** Links unfurled per message at most (Slack sends a handful). */
export const MAX_UNFURLS = 10;

export function registerEvents(bolt: BoltApp, app: App): void {
  // Slack's redeliveries never get here (redeliveries.ts).
  bolt.event('app_mention', async ({ event, body, context, client }) => {
    await afterPendingAcks();
    const thread_ts = event.thread_ts ?? event.ts;
    const team = event.team ?? (body as { team_id?: string }).team_id;
    const request = mentionRequest(event.text, context.botUserId, app.registry.commands.map((c) => c.name));
    // The asker's language (the answer is for them, in their thread), and for digests their role and zone.
    const member = event.user ? await memberInfo(client, event.user, app, { team, fresh: request.command === 'digest' }) : undefined;
    const ctx = app.context(
      'slack',
      { id: event.user ?? 'unknown', ...(member?.timezone && { timezone: member.timezone }) },
      { channel: { id: event.channel, kind: channelKind(event.channel) }, ...(team && { workspace: { id: team } }), ...memberContext(member) },
    );
    const reply =
      request.command === 'paper' && request.text === ''
        ? messageReply(ctx.i18n.t('slack.mentionHelp'), { ephemeral: true, locale: ctx.i18n.locale })
        : await app.registry.runText(ctx, request.command, request.text);
    const message = renderReply(event.user ? await deliverFile(client, reply, { channel: event.channel, user: event.user, thread_ts }, app.log) : reply);
    if (reply.ephemeral && event.user) {
      await client.chat.postEphemeral({ channel: event.channel, user: event.user, thread_ts, ...message });
    } else {
      await client.chat.postMessage({ channel: event.channel, thread_ts, ...message, unfurl_links: false, unfurl_media: false });
    }
  });

  bolt.event('link_shared', async ({ event, body, client }) => {
    // Request data: a list of objects with a url as Slack sends it, or read as none.
    const links: unknown[] = Array.isArray(event.links) ? event.links.slice(0, MAX_UNFURLS) : [];
    const urls = [...new Set(links.map((l) => (typeof l === 'object' && l !== null ? (l as { url?: unknown }).url : undefined)).filter((u): u is string => typeof u === 'string'))];
    if (urls.length === 0) return;
    // Slack has no workspace language: the card speaks the language of whoever shared the link.
    const team = (body as { team_id?: string }).team_id;
    const member = await memberInfo(client, event.user, app, { team });
    const ctx = app.context(
      'slack',
      { id: event.user, ...(member.name && { name: member.name }), ...(member.timezone && { timezone: member.timezone }) },
      { channel: { id: event.channel, kind: channelKind(event.channel) }, ...(team && { workspace: { id: team } }), ...memberContext(member) },
    );
    const replies = await Promise.all(urls.map((url) => app.registry.unfurl(ctx, sharedLinkUrl(url))));
    // By URL as Slack sent it; built in a Map, since a URL is request text (`__proto__` is one).
    const byUrl = new Map<string, { blocks: SlackBlock[] }>();
    urls.forEach((url, i) => {
      const reply = replies[i];
      if (reply && !byUrl.has(url)) byUrl.set(url, { blocks: renderUnfurlReply(reply) });
    });
    const unfurls = Object.fromEntries(byUrl);
    const source = event.source === 'composer' || event.source === 'conversations_history' ? event.source : undefined;
    if (byUrl.size > 0) {
      if (event.unfurl_id && source) await client.chat.unfurl({ unfurl_id: event.unfurl_id, source, unfurls });
      else await client.chat.unfurl({ channel: event.channel, ts: event.message_ts, unfurls });
    }
    // Then, a link posted in a channel (not one still in the composer) goes into its archive:
    // the unfurl has looked up a paper the library lacked, so this finds it held.
    if (event.source !== 'composer' && /^\d+\.\d+$/.test(event.message_ts)) {
      const share = { team, channel: event.channel, user: event.user, ts: event.message_ts, links: urls.map(sharedLinkUrl) };
      await recordSlackShare(app, share, member.name).catch((err: unknown) => app.log.warn({ err, platform: 'slack', channel: event.channel }, 'Slack: could not record the paper links of a message'));
    }
  });
}
