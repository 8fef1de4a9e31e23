/**
 * Many workspaces: Slack's OAuth v2 install flow, with Bolt's own InstallProvider (the HTTP
 * receiver serves `GET /slack/install` and `GET /slack/oauth_redirect`, and authorizes every
 * request from the installation store). What this module adds:
 * - the scopes, read from manifest.yml;
 * - a `state` that is signed with SLACK_STATE_SECRET, expires after {@link STATE_TTL_SECONDS},
 *   and is good once: its nonce is claimed in the shared store ({@link SeenEvents}), so a link
 *   replayed (with its code) installs nothing, whichever instance it reaches;
 * - the pages, in the visitor's language (Accept-Language), and the failures said plainly;
 * - on success, the digests an earlier uninstall paused run again.
 * Bolt's client options (SLACK_API_URL) reach the code exchange (oauth.v2.access) and the token
 * refresh of token rotation.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTTPReceiver, type HTTPReceiverOptions, type InstallURLOptions, type StateStore, type webApi } from '@slack/bolt';
import type { Logger } from 'pino';
import type { App } from '../../src/app.js';
import type { SlackConfig, SlackOAuthConfig } from '../../src/config.js';
import type { InstallationStore } from '../../src/store/installations.js';
import { causeChain } from '../../src/causes.js';
import { messages } from '../../src/i18n/index.js';
import { NotInstalledError, boltInstallationStore, installationKey, openInstallations } from './installations.js';
import { boltLogger } from './logger.js';
import { failedPage, installPage, installedPage, preferredLocale, type InstallFailure } from './installPages.js';
import { botScopes } from './manifest.js';
import { teamServed, workspaceInstalled, type InstallationEvent } from './uninstall.js';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';
/** How long an install link (its state) stays good: Slack's own default. */
export const STATE_TTL_SECONDS = 600;
/** How long telling a workspace without an installation why may take. */
const NOTE_TIMEOUT_MS = 10_000;

/** Slack's answers to oauth.v2.access about the code itself. */
const CODE_REFUSALS = new Set(['invalid_code', 'code_already_used', 'code_expired', 'bad_redirect_uri', 'invalid_grant_type']);

export interface SlackOAuth {
  installs: InstallationStore;
  /** What the HTTP receiver needs for the install flow. */
  receiverOptions: Pick<HTTPReceiverOptions, 'clientId' | 'clientSecret' | 'stateSecret' | 'scopes' | 'installationStore' | 'installerOptions'>;
  /** The receiver's listener, with the visitor's language known to the install page. */
  wrap(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
}

export interface SlackOAuthOptions {
  clientOptions: webApi.WebClientOptions;
  log: Logger;
  onEvent?: (event: InstallationEvent) => void;
}

/** A state that is not this app's, has expired, or was used. */
class StateRefused extends Error {
  override readonly name = 'StateRefused';
  /** @slack/oauth's code for an invalid state, which the failure page reads. */
  readonly code = 'slack_oauth_invalid_state';
}

/**
 * @example const oauth = slackOAuth(app, config.slack.oauth, { clientOptions, log }); new HTTPReceiver({ …, ...oauth.receiverOptions });
 */
export function slackOAuth(app: App, config: SlackOAuthConfig, options: SlackOAuthOptions): SlackOAuth {
  const { log } = options;
  const installs = openInstallations(app, config);
  const scopes = botScopes();
  const installUrlOptions: InstallURLOptions = { scopes };
  const visitor = new AsyncLocalStorage<string>();
  const localeOf = (req: IncomingMessage) => preferredLocale(req.headers['accept-language']);
  return {
    installs,
    receiverOptions: {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      stateSecret: config.stateSecret,
      scopes,
      installationStore: boltInstallationStore(installs, app.now, (key, team) => teamServed(app, key, team)),
      installerOptions: {
        installPath: INSTALL_PATH,
        redirectUriPath: REDIRECT_PATH,
        stateStore: singleUseStateStore(config.stateSecret, app, installUrlOptions),
        stateCookieExpirationSeconds: STATE_TTL_SECONDS,
        authorizationUrl: authorizationUrlFor(options.clientOptions.slackApiUrl),
        clientOptions: options.clientOptions,
        renderHtmlForInstallPath: (url) => installPage(visitor.getStore() ?? 'en', url, scopes, config.retentionDays),
        callbackOptions: {
          success: () => undefined,
          async successAsync(installation, _options, req, res) {
            const team = installation.team ?? undefined;
            const enterprise = installation.enterprise ?? undefined;
            const orgWide = installation.isEnterpriseInstall === true;
            const key = installationKey({ isEnterpriseInstall: orgWide, enterpriseId: enterprise?.id, teamId: team?.id });
            const resumed = key === undefined ? [] : await workspaceInstalled(app, installs, key).catch((err: unknown) => {
              log.error({ err, installation: key }, 'Slack: installed, but the digests paused by an earlier uninstall could not be resumed');
              return [];
            });
            log.info({ team: team?.id, enterprise: enterprise?.id, enterpriseInstall: orgWide, installer: installation.user.id, resumedDigests: resumed }, orgWide ? 'Slack: app installed in an organization (org-wide)' : 'Slack: app installed in a workspace');
            options.onEvent?.('install');
            const where = orgWide ? { id: enterprise?.id, name: enterprise?.name, orgWide } : { id: team?.id, name: team?.name, orgWide };
            html(res, 200, installedPage(localeOf(req), where, installation.appId));
          },
          failure: () => undefined,
          async failureAsync(error, _options, req, res) {
            const failure = failureOf(error);
            const reference = randomBytes(4).toString('hex');
            if (failure === 'other') log.error({ err: error, reference }, 'Slack: the install flow failed');
            else log.info({ failure, reason: error.message }, 'Slack: an install was refused');
            html(res, failure === 'other' ? 500 : failure === 'cancelled' ? 200 : 400, failedPage(localeOf(req), failure, INSTALL_PATH, reference));
          },
        },
      },
    },
    wrap: (listener) => (req, res) => visitor.run(localeOf(req), () => listener(req, res)),
  };
}

/**
 * Where installers approve the app: GovSlack's page when SLACK_API_URL is GovSlack's Web API,
 * else Slack's (a proxy or a test server in front of the Web API does not serve that page).
 * @example authorizationUrlFor('https://slack-gov.com/api/') // 'https://slack-gov.com/oauth/v2/authorize'
 */
export function authorizationUrlFor(apiUrl: string | undefined): string {
  const host = apiUrl ? new URL(apiUrl).hostname : 'slack.com';
  return /(^|\.)slack-gov\.com$/.test(host) ? 'https://slack-gov.com/oauth/v2/authorize' : 'https://slack.com/oauth/v2/authorize';
}

/**
 * The install flow's `state`: `<payload>.<HMAC-SHA256>`, the payload the time it was made and a
 * nonce. Verified: the signature, the age (by the app's clock), and that the nonce is seen for
 * the first time.
 */
function singleUseStateStore(secret: string, app: App, installUrlOptions: InstallURLOptions): StateStore {
  const sign = (payload: string) => createHmac('sha256', secret).update(`slack-install-state:${payload}`).digest('base64url');
  return {
    async generateStateParam() {
      const payload = Buffer.from(JSON.stringify({ t: app.now().getTime(), n: randomBytes(16).toString('base64url') })).toString('base64url');
      return `${payload}.${sign(payload)}`;
    },
    async verifyStateParam(_now, state) {
      const [payload = '', signature = ''] = state.split('.');
      const expected = Buffer.from(sign(payload));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new StateRefused('the state was not made by this app');
      const { t, n } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { t: number; n: string };
      const now = app.now();
      if (now.getTime() - t > STATE_TTL_SECONDS * 1000 || t - now.getTime() > 60_000) throw new StateRefused('the state has expired');
      if (!(await app.seenEvents.firstSighting(`slack-install-state:${n}`, now))) throw new StateRefused('the state was already used');
      return installUrlOptions;
    },
  };
}

function failureOf(error: { code?: string; data?: { error?: string }; message: string }): InstallFailure {
  switch (error.code) {
    case 'slack_oauth_invalid_state':
    case 'slack_oauth_missing_state':
    case 'slack_oauth_missing_code':
      return 'state';
    case 'slack_oauth_installer_authorization_error':
      return 'cancelled';
    case 'slack_webapi_platform_error':
      return CODE_REFUSALS.has(error.data?.error ?? '') ? 'code' : 'other';
    default:
      return 'other';
  }
}

function html(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

/** Bolt's InstallProvider, as an HTTP receiver with the install flow holds it. */
export type Installer = NonNullable<HTTPReceiver['installer']>;

/**
 * A workspace's bot token through Bolt's authorize (which refreshes a rotated token that expires
 * within two hours, and stores the new one): the workspace's own installation, else that of the
 * org-wide install that serves it.
 * @example const token = await tokensOf(receiver.installer!, oauth.installs)('T0123');
 */
export function tokensOf(installer: Installer, installs: InstallationStore): (workspace: string) => Promise<string> {
  return async (workspace) => {
    const key = await installs.keyServing(workspace);
    if (key === undefined) throw new NotInstalledError(`Paper Scout is not installed in workspace ${workspace}, nor in its organization`);
    const org = key !== workspace;
    const result = await installer.authorize({ teamId: workspace, enterpriseId: org ? key : undefined, isEnterpriseInstall: org });
    if (!result.botToken) throw new Error(`the installation of ${workspace} has no bot token`);
    return result.botToken;
  };
}

/**
 * Workspace tokens for a process that posts without serving requests (`digest run-due`): the
 * InstallProvider of a receiver that is never started.
 */
export function standaloneTokens(app: App, config: SlackConfig & { oauth: SlackOAuthConfig }, log: Logger): (workspace: string) => Promise<string> {
  const clientOptions = { ...(config.apiUrl && { slackApiUrl: config.apiUrl }) };
  const oauth = slackOAuth(app, config.oauth, { clientOptions, log });
  const receiver = new HTTPReceiver({ signingSecret: config.signingSecret ?? '', logger: boltLogger(log), ...oauth.receiverOptions });
  return tokensOf(receiver.installer!, oauth.installs);
}

/**
 * Many workspaces: a request from a workspace with no installation (never installed, or
 * removed) is acknowledged and goes no further, as Bolt does; a slash command or a button also
 * hears why, through its response_url (which needs no token). Anything else is logged.
 */
export function notInstalledHandler(log: Logger, onEvent: ((event: InstallationEvent) => void) | undefined) {
  return async ({ error, body }: { error: Error; body: unknown }): Promise<void> => {
    if ((error as { code?: unknown }).code !== 'slack_bolt_authorization_error') {
      log.error({ err: error }, 'Slack request failed after it was acknowledged');
      return;
    }
    onEvent?.('authorize_failure');
    const b = (body ?? {}) as { team_id?: unknown; team?: { id?: unknown }; response_url?: unknown };
    const team = b.team_id ?? b.team?.id;
    if (!causeChain(error).some((e) => e instanceof NotInstalledError)) {
      // The store failed, or the tokens do not open (INSTALLATION_KEY changed): not the workspace's doing.
      log.error({ err: error, team }, 'Slack: could not read the installation of a workspace; its request was dropped');
      return;
    }
    log.warn({ team, reason: error.message }, 'Slack: a request from a workspace without an installation was dropped');
    if (typeof b.response_url !== 'string') return;
    await fetch(b.response_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: messages('en').t('slack.notInstalled') }),
      signal: AbortSignal.timeout(NOTE_TIMEOUT_MS),
    }).catch((err: unknown) => log.info({ err, team }, 'Slack: could not tell a workspace without an installation why'));
  };
}
