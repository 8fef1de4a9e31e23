/**
 * Digest senders for a process that posts but does not listen (`paperscout digest run-due`):
 * Discord over REST only, Slack over the Web API only, for the platforms configured.
 */
import type { App } from '../src/app.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/store/digests.js';
import { createDiscordSender } from './discord/digestSender.js';
import { createSlackSender } from './slack/digestSender.js';

export function createSenders(app: App): Partial<Record<ChatPlatform, DigestSender>> {
  const senders: Partial<Record<ChatPlatform, DigestSender>> = {};
  if (app.config.discord) senders.discord = createDiscordSender(app.config.discord);
  if (app.config.slack) senders.slack = createSlackSender(app.config.slack, app.log.child({ adapter: 'slack' }));
  return senders;
}
