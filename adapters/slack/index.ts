/**
 * The Slack adapter: a Bolt app that answers /paper, /topic and /help, their buttons, mentions
 * and shared paper links. HTTP mode listens on PORT at /slack/events (commands, events and
 * interactivity; Bolt verifies every request's signature and age); Socket Mode (SLACK_APP_TOKEN)
 * connects out instead and needs no public URL. SLACK_API_URL points the Web API client
 * elsewhere (GovSlack, a proxy, a test server).
 */
import type { AddressInfo } from 'node:net';
import { App as BoltApp, HTTPReceiver, type AppOptions } from '@slack/bolt';
import type { App } from '../../src/app.js';
import type { SlackConfig } from '../../src/config.js';
import type { RunningAdapter } from '../../src/adapter.js';
import { registerActions } from './actions.js';
import { registerCommands } from './commands.js';
import { createSlackSender } from './digestSender.js';
import { registerEvents } from './events.js';
import { boltLogger } from './logger.js';
import { oncePerEvent } from './redeliveries.js';

/** Bolt's path for commands, events and interactivity alike. */
export const EVENTS_PATH = '/slack/events';
/** Web API retries: a reply that comes minutes late is no use to whoever clicked. */
const API_RETRIES = 2;
const API_TIMEOUT_MS = 10_000;

export interface RunningSlack extends RunningAdapter {
  /** The port /slack/events listens on in HTTP mode (the one picked when PORT is 0). */
  port?: number;
}

/**
 * Checks the bot token (auth.test), then listens for Slack.
 * @example const slack = await startSlack(app, config.slack); … await slack.stop();
 */
export async function startSlack(app: App, config: SlackConfig): Promise<RunningSlack> {
  const log = app.log.child({ adapter: 'slack' });
  const logger = boltLogger(log);
  const options: AppOptions = {
    token: config.botToken,
    logger,
    clientOptions: {
      ...(config.apiUrl && { slackApiUrl: config.apiUrl }),
      retryConfig: { retries: API_RETRIES },
      timeout: API_TIMEOUT_MS,
    },
    // init() runs auth.test and fails on a bad token, instead of every later request failing.
    deferInitialization: true,
  };
  const receiver = config.appToken
    ? undefined
    : new HTTPReceiver({ signingSecret: config.signingSecret ?? '', endpoints: EVENTS_PATH, logger, processBeforeResponse: false, signatureVerification: true });
  const bolt = receiver ? new BoltApp({ ...options, receiver }) : new BoltApp({ ...options, appToken: config.appToken!, socketMode: true });

  bolt.use(oncePerEvent(app.seenEvents, app.now, log));
  registerCommands(bolt, app);
  registerActions(bolt, app, log);
  registerEvents(bolt, app, log);
  bolt.error(async (err) => {
    log.error({ err }, 'Slack request failed after it was acknowledged');
  });

  try {
    await bolt.init();
  } catch (err) {
    const where = config.apiUrl ? ` at ${config.apiUrl} (SLACK_API_URL)` : '';
    throw new Error(
      `Slack did not accept SLACK_BOT_TOKEN${where}: ${err instanceof Error ? err.message : String(err)}. Copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page.`,
      { cause: err },
    );
  }

  if (receiver) {
    const server = await receiver.start(config.port);
    const port = (server.address() as AddressInfo).port;
    log.info({ port, path: EVENTS_PATH }, 'Slack adapter listening (HTTP mode)');
    return { name: 'slack', port, sender: createSlackSender(config, log), stop: () => stop(bolt) };
  }
  await bolt.start();
  log.info('Slack adapter connected (Socket Mode)');
  return { name: 'slack', sender: createSlackSender(config, log), stop: () => stop(bolt) };
}

async function stop(bolt: BoltApp): Promise<void> {
  await bolt.stop();
}
