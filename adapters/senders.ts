/**
 * Digest senders for a process that posts but does not listen (`paperscout digest run-due`):
 * Discord over REST only, Slack over the Web API only (with each workspace's token when the app
 * is installed in many), for the platforms configured.
 */
import type { App } from '../src/app.js';
import type { DigestSender } from '../src/digest/sender.js';
import type { ChatPlatform } from '../src/store/digests.js';
import { createDiscordSender } from './discord/digestSender.js';
import { createSlackSender } from './slack/digestSender.js';
import { standaloneTokens } from './slack/oauth.js';

export function createSenders(app: App): Partial<Record<ChatPlatform, DigestSender>> {
  const senders: Partial<Record<ChatPlatform, DigestSender>> = {};
  if (app.config.discord) senders.discord = createDiscordSender(app.config.discord);
  const slack = app.config.slack;
  if (slack) {
    const log = app.log.child({ adapter: 'slack' });
    // Many workspaces: each digest goes with its workspace's token, from the installation store.
    senders.slack = createSlackSender(slack, log, slack.oauth ? { tokenFor: standaloneTokens(app, { ...slack, oauth: slack.oauth }, log) } : {});
  }
  return senders;
}
