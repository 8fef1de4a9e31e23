/**
 * A channel's archive from the messages posted in it, with DISCORD_MESSAGE_CONTENT=on: the bot
 * then asks for the GuildMessages and the privileged MessageContent intents, so every message
 * posted where it can read arrives over the gateway, and the paper links in a member's message
 * are recorded as shared by them (`recordShares`), with the message id as the message's key.
 * Bots, webhooks, Discord's own messages and edits are no shares. The raw dispatch is read
 * (`sharedMessage`), so that a message in a channel or thread discord.js has not cached counts
 * too. Without the setting none of this runs: only papers shared through the bot are recorded.
 */
import { Events, type Client } from 'discord.js';
import type { Logger } from 'pino';
import type { App } from '../../src/app.js';
import { recordShares } from '../../src/commands/archive.js';
import { sharedMessage, type SharedMessage } from './incoming.js';

/**
 * Records the paper links of members' messages in their channel's archive.
 * @example archiveMessages(client, app, log, track);
 */
export function archiveMessages(client: Client, app: App, log: Logger, track?: (recording: Promise<void>) => void): void {
  client.on(Events.Raw, (packet: { t?: unknown; d?: unknown }) => {
    if (packet?.t !== 'MESSAGE_CREATE') return;
    const message = sharedMessage(packet.d);
    if (!message) return;
    const recording = record(app, message).catch((err: unknown) => log.warn({ err, channel: message.channelId, message: message.id }, 'Discord: could not record the paper links of a message'));
    track?.(recording);
  });
}

async function record(app: App, message: SharedMessage): Promise<void> {
  const ctx = app.context('discord', message.author, { channel: { id: message.channelId, kind: 'channel' }, workspace: { id: message.guildId } });
  const recorded = await recordShares(ctx, message.links, message.id);
  if (recorded > 0) app.log.debug({ platform: 'discord', channel: message.channelId, message: message.id, recorded }, 'paper links recorded in the channel archive');
}
