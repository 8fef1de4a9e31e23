/**
 * Token rotation for workspaces installed before it was turned on (many workspaces, OAuth). A
 * workspace that installs once rotation is on gets an expiring token and a refresh token, which
 * Bolt's authorize refreshes; one installed before keeps a token that never expires until it is
 * exchanged with `oauth.v2.exchange`. `paperscout slack rotate-tokens` does that for every
 * installation that has no refresh token yet, and stores what Slack gives back.
 */
import { webApi } from '@slack/bolt';
import type { App } from '../../src/app.js';
import type { SlackConfig, SlackOAuthConfig } from '../../src/config.js';
import { causeChain } from '../../src/causes.js';
import { openInstallations } from './installations.js';
import { boltLogger } from './logger.js';

export interface ExchangeSummary {
  /** Installations whose token was exchanged for a rotating one. */
  exchanged: string[];
  /** Installations whose token rotated already. */
  rotating: string[];
  /** Installations whose token could not be exchanged, with Slack's answer or the fault. */
  failed: Array<{ key: string; error: string }>;
}

/**
 * Exchanges the token of every installation that has no refresh token for a rotating one.
 * @example const { exchanged, failed } = await exchangeTokens(app, { ...config.slack, oauth });
 */
export async function exchangeTokens(app: App, config: SlackConfig & { oauth: SlackOAuthConfig }): Promise<ExchangeSummary> {
  const installs = openInstallations(app, config.oauth);
  const client = new webApi.WebClient(undefined, { ...(config.apiUrl && { slackApiUrl: config.apiUrl }), logger: boltLogger(app.log), retryConfig: { retries: 2 }, timeout: 30_000 });
  const summary: ExchangeSummary = { exchanged: [], rotating: [], failed: [] };
  for (const key of await installs.keys()) {
    try {
      const installation = await installs.get(key);
      if (!installation) continue;
      if (installation.refreshToken) {
        summary.rotating.push(key);
        continue;
      }
      const answer = await client.oauth.v2.exchange({ client_id: config.oauth.clientId, client_secret: config.oauth.clientSecret, token: installation.botToken });
      if (!answer.access_token || !answer.refresh_token || answer.expires_in === undefined) {
        throw new Error('Slack gave no expiring token and refresh token back: is token rotation turned on (OAuth & Permissions → Advanced token security)?');
      }
      const now = app.now();
      const { installedAt: _i, updatedAt: _u, ...kept } = installation;
      await installs.save({ ...kept, botToken: answer.access_token, refreshToken: answer.refresh_token, expiresAt: Math.floor(now.getTime() / 1000) + answer.expires_in }, now);
      summary.exchanged.push(key);
      app.log.info({ installation: key }, 'Slack: exchanged an installation token for a rotating one');
    } catch (err) {
      summary.failed.push({ key, error: slackError(err) });
      app.log.warn({ err, installation: key }, 'Slack: could not exchange an installation token for a rotating one');
    }
  }
  return summary;
}

/** Slack's error code when Slack refused, else the fault's message. */
function slackError(err: unknown): string {
  const data = causeChain(err).map((e) => (e as { data?: { error?: unknown } }).data?.error).find((e) => typeof e === 'string');
  return typeof data === 'string' ? data : err instanceof Error ? err.message : String(err);
}
