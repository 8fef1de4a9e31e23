/**
 * The Slack adapter: a Bolt app that answers /paper, /topic, /library and /help, their buttons,
 * mentions and shared paper links, and keeps channels' archives of the paper links posted
 * there. HTTP mode answers at /slack/events (commands, events and interactivity) on the
 * process's one listener (adapters/listener.ts), which it does not own: verify.ts checks every
 * request's signature, age and shape before Bolt sees it. Socket Mode (SLACK_APP_TOKEN)
 * connects out instead and needs no public URL. SLACK_API_URL points the Web API client
 * elsewhere (GovSlack, a proxy, a test server).
 *
 * One workspace runs with SLACK_BOT_TOKEN. Many run with the install flow instead (oauth.ts):
 * the same handler also serves /slack/install and /slack/oauth_redirect, and Bolt authorizes
 * each request from the installation store, so every handler's client carries the token of the
 * request's workspace; digests look theirs up the same way.
 *
 * Two steps, so that a supervisor can retry the second: {@link SlackEndpoint.mount} (HTTP mode:
 * the handler on the listener, for the process's life) and {@link SlackEndpoint.connect}
 * (auth.test with the bot token; Socket Mode: a fresh connection). A connection stopped (a
 * crash, a restart) leaves the handler mounted, answering 503 until the next connect, which
 * runs a new Bolt app behind it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { App as BoltApp, HTTPReceiver, SocketModeReceiver, type AppOptions } from '@slack/bolt';
import type { App } from '../../src/app.js';
import type { Clock } from '../../src/clock.js';
import type { SlackConfig } from '../../src/config.js';
import { StartError, describeCause, isNetworkFailure, type ConnectionState, type RunningAdapter } from '../adapter.js';
import { requestPath, startHttpListener, type HttpMount } from '../listener.js';
import { registerActions } from './actions.js';
import { registerArchive } from './archive.js';
import { registerCommands } from './commands.js';
import { createSlackSender } from './digestSender.js';
import { registerEvents } from './events.js';
import { boltLogger } from './logger.js';
import { INSTALL_PATH, REDIRECT_PATH, notInstalledHandler, slackOAuth, tokensOf, type SlackOAuth } from './oauth.js';
import { oncePerEvent } from './redeliveries.js';
import { registerUninstallEvents, startPurging, type InstallationEvent } from './uninstall.js';
import { guardSlackRequests } from './verify.js';

/** Bolt's path for commands, events and interactivity alike. */
export const EVENTS_PATH = '/slack/events';
/** Where the Web API is unless SLACK_API_URL says otherwise. */
export const SLACK_API_URL = 'https://slack.com/api/';
/** Web API retries: a reply that comes minutes late is no use to whoever clicked. */
const API_RETRIES = 2;
const API_TIMEOUT_MS = 10_000;
/** Slack's answers to auth.test and apps.connections.open that mean the token is the problem. */
const TOKEN_REFUSALS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type', 'missing_scope', 'no_permission', 'invalid_token']);

export interface RunningSlack extends RunningAdapter {
  /** The port /slack/events listens on in HTTP mode (the one picked when PORT is 0). */
  port?: number;
}

export interface SlackOptions {
  /** HTTP mode: the clock request stamps are checked against (default: the system's). */
  clock?: Pick<Clock, 'now'>;
  /** Told of each request's handling, start to finish (a shutdown waits for them). */
  track?: (handling: Promise<void>) => void;
  /** Many workspaces: told of each install, uninstall and refused authorization (for metrics). */
  onInstallation?: (event: InstallationEvent) => void;
}

export interface SlackEndpoint {
  /**
   * HTTP mode: answers /slack/events (and the install flow) on `listener` from now on; until
   * {@link connect} has succeeded, /slack/events answers 503. Socket Mode: nothing to do.
   */
  mount(listener: HttpMount): void;
  /** Checks the bot token (auth.test); Socket Mode then opens a new connection. Throws a {@link StartError}. */
  connect(signal?: AbortSignal): Promise<RunningSlack>;
  /** Stops everything and unmounts the handler (the listener is its owner's to close). */
  close(): Promise<void>;
}

/**
 * Listens (on a listener of its own, HTTP mode) and connects in one go: what tests and simple
 * callers want; stopping it closes that listener too.
 * @example const slack = await startSlack(app, config.slack); … await slack.stop();
 */
export async function startSlack(app: App, config: SlackConfig, options: SlackOptions = {}): Promise<RunningSlack> {
  const endpoint = createSlack(app, config, options);
  const listener = config.appToken ? undefined : await startHttpListener(config.port, { log: app.log });
  if (listener) endpoint.mount(listener);
  try {
    const running = await endpoint.connect();
    if (!listener) return running;
    return {
      ...running,
      async stopAccepting() {
        await running.stopAccepting?.();
        listener.stopAccepting();
      },
      async stop() {
        await endpoint.close();
        await listener.close();
      },
    };
  } catch (err) {
    await endpoint.close();
    await listener?.close();
    throw err;
  }
}

/**
 * The Slack adapter, not yet mounted or connected.
 * @example const slack = createSlack(app, config.slack); slack.mount(listener); await slack.connect();
 */
export function createSlack(app: App, config: SlackConfig, options: SlackOptions = {}): SlackEndpoint {
  const log = app.log.child({ adapter: 'slack' });
  const logger = boltLogger(log);
  const apiUrl = config.apiUrl ?? SLACK_API_URL;
  const clientOptions = {
    ...(config.apiUrl && { slackApiUrl: config.apiUrl }),
    retryConfig: { retries: API_RETRIES },
    timeout: API_TIMEOUT_MS,
  };

  // Many workspaces: the install flow, and every request authorized from the installation store.
  const oauth = config.oauth && slackOAuth(app, config.oauth, { clientOptions, log, ...(options.onInstallation && { onEvent: options.onInstallation }) });

  /** One Bolt app with every handler; Socket Mode makes one per connection. */
  const createBolt = (receiver: HTTPReceiver | SocketModeReceiver): BoltApp => {
    const options_: AppOptions = {
      ...(config.botToken && { token: config.botToken }),
      logger,
      clientOptions,
      receiver,
      // init() runs auth.test and fails on a bad token, instead of every later request failing.
      deferInitialization: true,
      ...(receiver instanceof SocketModeReceiver && { socketMode: true }),
      ...(oauth && { extendedErrorHandler: true }),
    };
    const bolt = new BoltApp(options_);
    if (options.track) {
      const track = options.track;
      // Listeners run inside next(): this sees each request from its start to its answer.
      bolt.use(async ({ next }) => {
        const handling = next();
        track(handling.catch(() => undefined));
        await handling;
      });
    }
    bolt.use(oncePerEvent(app.seenEvents, app.now, log));
    registerCommands(bolt, app);
    registerActions(bolt, app, log);
    registerEvents(bolt, app);
    registerArchive(bolt, app);
    if (oauth) {
      registerUninstallEvents(bolt, app, oauth.installs, { ...(options.onInstallation && { onEvent: options.onInstallation }) });
      bolt.error(notInstalledHandler(log, options.onInstallation));
    } else {
      bolt.error(async (err) => {
        log.error({ err }, 'Slack request failed after it was acknowledged');
      });
    }
    return bolt;
  };

  const checkToken = async (bolt: BoltApp): Promise<void> => {
    try {
      await bolt.init();
    } catch (err) {
      throw startFailure(err, 'SLACK_BOT_TOKEN', apiUrl, config.apiUrl !== undefined);
    }
  };

  if (!config.appToken) return httpEndpoint(app, config, options, { createBolt, checkToken, logger, log, oauth });

  let current: { bolt: BoltApp; receiver: SocketModeReceiver } | undefined;
  return {
    mount: () => undefined,
    async connect(signal) {
      await current?.bolt.stop().catch(() => undefined);
      const receiver = new SocketModeReceiver({ appToken: config.appToken!, logger, installerOptions: { clientOptions } });
      const bolt = createBolt(receiver);
      current = { bolt, receiver };
      let state: ConnectionState = 'connected';
      let closing = false;
      let markDown: (err: Error) => void = () => undefined;
      const down = new Promise<Error>((resolve) => (markDown = resolve));
      // The Socket Mode client reconnects by itself after a drop; its states go to the log.
      for (const event of ['connecting', 'connected', 'reconnecting', 'disconnecting', 'disconnected'] as const) {
        receiver.client.on(event, () => {
          if (event === 'reconnecting') state = 'reconnecting';
          if (event === 'connected') state = 'connected';
          log[event === 'reconnecting' ? 'warn' : 'info']({ state: event }, `Slack Socket Mode: ${event}`);
          if (event === 'disconnected' && !closing) markDown(new Error('the Slack Socket Mode connection closed and will not reconnect by itself'));
        });
      }
      let stopped: Promise<void> | undefined;
      const stop = (): Promise<void> => {
        closing = true;
        stopped ??= (bolt.stop() as Promise<unknown>).then(
          () => undefined,
          (err: unknown) => log.warn({ err }, 'Slack Socket Mode did not disconnect cleanly'),
        );
        return stopped;
      };
      try {
        await checkToken(bolt);
        await untilAborted(
          bolt.start().catch((err: unknown) => {
            throw startFailure(err, 'SLACK_APP_TOKEN', apiUrl, config.apiUrl !== undefined);
          }),
          signal,
        );
      } catch (err) {
        await stop();
        throw err;
      }
      log.info('Slack adapter connected (Socket Mode)');
      return { name: 'slack', sender: createSlackSender(config, log), down, state: () => state, stopAccepting: stop, stop };
    },
    async close() {
      await current?.bolt.stop().catch(() => undefined);
    },
  };
}

/**
 * HTTP mode: one handler, mounted for the process's life. Each connect after a stop (a crash, a
 * restart) runs a new Bolt app behind it; in between, and before the first, /slack/events
 * answers 503 with Retry-After (Slack retries events; a command's user sees it failed).
 */
function httpEndpoint(
  app: App,
  config: SlackConfig,
  options: SlackOptions,
  {
    createBolt,
    checkToken,
    logger,
    log,
    oauth,
  }: { createBolt: (receiver: HTTPReceiver) => BoltApp; checkToken: (bolt: BoltApp) => Promise<void>; logger: ReturnType<typeof boltLogger>; log: App['log']; oauth: SlackOAuth | undefined },
): SlackEndpoint {
  const fresh = () => {
    const receiver = new HTTPReceiver({
      signingSecret: config.signingSecret ?? '',
      endpoints: EVENTS_PATH,
      logger,
      processBeforeResponse: false,
      // verify.ts checks every request before Bolt sees it, with Slack's whole rule and the service's clock.
      signatureVerification: false,
      ...oauth?.receiverOptions,
    });
    const bolt = createBolt(receiver);
    // The install page learns the visitor's language.
    const listener = oauth ? oauth.wrap(receiver.requestListener) : receiver.requestListener;
    return { receiver, bolt, listener };
  };
  let current = fresh();
  /** The Bolt app behind the handler ran a connection that was stopped: the next connect makes a new one. */
  let spent = false;
  /** Which connection is live (0: none); a stale connection's stop leaves a newer one alone. */
  let live = 0;
  let connections = 0;
  let accepting = true;
  let port: number | undefined;
  let unmount: (() => void) | undefined;
  let purger: NodeJS.Timeout | undefined;
  const now = options.clock ? () => options.clock!.now().getTime() : Date.now;
  const events = guardSlackRequests({ signingSecret: config.signingSecret ?? '', now, log, pass: (req, res) => current.listener(req, res) });
  const plain = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(`${text}\n`);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (requestPath(req.url) === EVENTS_PATH) {
      if (req.method !== 'POST') return plain(res, 405, 'Slack posts here; nothing else is answered.', { allow: 'POST' });
      if (!live) return plain(res, 503, 'Paper Scout is connecting to Slack; try again shortly.', { 'retry-after': '10' });
      if (!accepting) return plain(res, 503, 'Paper Scout is stopping; try again shortly.', { 'retry-after': '10' });
      return events(req, res);
    }
    // The install flow's pages (the only other paths mounted).
    if (req.method !== 'GET') return plain(res, 405, 'Only GET is answered here.', { allow: 'GET' });
    current.listener(req, res);
  };
  const disconnect = (connection: number) => {
    if (connection !== live) return;
    live = 0;
    spent = true;
    if (purger) clearInterval(purger);
    purger = undefined;
  };
  return {
    mount(listener) {
      if (unmount) return;
      port = listener.port;
      unmount = listener.mount([EVENTS_PATH, ...(oauth ? [INSTALL_PATH, REDIRECT_PATH] : [])], handler);
      log.info({ port, path: EVENTS_PATH }, 'Slack adapter listening (HTTP mode)');
    },
    async connect() {
      if (spent) {
        current = fresh();
        spent = false;
      }
      const { bolt, receiver } = current;
      await checkToken(bolt);
      const connection = ++connections;
      live = connection;
      accepting = true;
      log.info({ port, ...(oauth && { workspaces: 'many (install flow)' }) }, 'Slack adapter connected (HTTP mode)');
      if (oauth && config.oauth && !purger) purger = startPurging(app, oauth.installs, config.oauth.retentionDays, log);
      return {
        name: 'slack',
        ...(port !== undefined && { port }),
        sender: createSlackSender(config, log, oauth ? { tokenFor: tokensOf(receiver.installer!, oauth.installs) } : {}),
        state: () => 'connected',
        async stopAccepting() {
          // New requests hear 503 (the listener is closed by its owner); those under way finish.
          if (connection === live) accepting = false;
        },
        stop: async () => disconnect(connection),
      };
    },
    async close() {
      disconnect(live);
      unmount?.();
      unmount = undefined;
    },
  };
}

/** A rejected promise when `signal` aborts first (a connection attempt that hangs). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('connection attempt abandoned'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A start failure said as what to do: the network, or the token and where to copy it from. */
function startFailure(err: unknown, setting: 'SLACK_BOT_TOKEN' | 'SLACK_APP_TOKEN', apiUrl: string, custom: boolean): StartError {
  if (err instanceof StartError) return err; // the supervisor gave up waiting
  const code = (err as { data?: { error?: unknown } } | undefined)?.data?.error;
  const cause = describeCause(err);
  if (typeof code === 'string' && TOKEN_REFUSALS.has(code)) {
    const where = custom ? ` at ${apiUrl} (SLACK_API_URL)` : '';
    const fix =
      setting === 'SLACK_BOT_TOKEN'
        ? "Copy the Bot User OAuth Token (xoxb-…) from your app's OAuth & Permissions page."
        : "Create an app-level token with the connections:write scope on your app's Basic Information page.";
    return new StartError('refused', `Slack did not accept ${setting}${where}: ${cause}. ${fix}`, { cause: err });
  }
  const requestFailed = (err as { code?: unknown } | undefined)?.code === 'slack_webapi_request_error';
  if (requestFailed || isNetworkFailure(err)) {
    return new StartError('unreachable', `could not reach Slack at ${apiUrl} (${cause}). Check the network${custom ? ' and SLACK_API_URL' : ''}.`, { cause: err });
  }
  return new StartError('failed', `Slack: could not connect (${cause}).`, { cause: err });
}
