/**
 * Bolt's `InstallationStore` over the core's installation store (many workspaces, OAuth): what
 * the install flow stores and what `authorize` fetches for every request, keyed by the
 * enterprise id for an org-wide install, else by the team id. Tokens are sealed by the core store
 * (`src/store/installations.ts`) with INSTALLATION_KEY, else SLACK_STATE_SECRET.
 */
import type { Installation as BoltInstallation, InstallationQuery, InstallationStore as BoltInstallationStore } from '@slack/bolt';
import type { App } from '../../src/app.js';
import type { SlackOAuthConfig } from '../../src/config.js';
import { SealedInstallationStore, type Installation, type InstallationStore, type NewInstallation } from '../../src/store/installations.js';
import { tokenBox } from '../../src/store/tokenBox.js';

/** The app's installations, tokens sealed with the configured key. */
export function openInstallations(app: App, oauth: SlackOAuthConfig): InstallationStore {
  return new SealedInstallationStore(app.stores.installationRows, tokenBox(oauth.installationKey));
}

/** An installation's key: the enterprise id of an org-wide install, else the team id. */
export function installationKey(q: { isEnterpriseInstall?: boolean | undefined; enterpriseId?: string | undefined; teamId?: string | undefined }): string | undefined {
  return q.isEnterpriseInstall ? q.enterpriseId : q.teamId;
}

/** Thrown by fetchInstallation when a workspace has no installation (Bolt turns it into an AuthorizationError). */
export class NotInstalledError extends Error {
  override readonly name = 'NotInstalledError';
}

/** How long this process trusts that it recorded a workspace of an org-wide install. */
const SERVED_MEMO_MS = 3_600_000;

/**
 * A request from a workspace of an org-wide install is answered with the organization's token;
 * a request from a workspace the install does not serve yet also records that it does
 * ({@link InstallationStore.noteTeam}), for work that starts without a request (digests) and for
 * an uninstall, and tells `onServed` (which resumes its digests). Each workspace is recorded
 * once an hour per process at most, so requests do not write.
 * @example new App({ receiver: new HTTPReceiver({ …, installationStore: boltInstallationStore(installs, app.now) }) })
 */
export function boltInstallationStore(installs: InstallationStore, now: () => Date, onServed?: (key: string, team: string) => Promise<void>): BoltInstallationStore {
  const served = new Map<string, number>();
  return {
    async storeInstallation(installation) {
      await installs.save(fromBolt(installation as BoltInstallation<'v2', boolean>), now());
      served.clear();
    },
    async fetchInstallation(query: InstallationQuery<boolean>) {
      const key = installationKey(query);
      const found = key === undefined ? undefined : await installs.get(key);
      if (!found) throw new NotInstalledError(`Paper Scout is not installed in ${query.isEnterpriseInstall ? 'enterprise' : 'workspace'} ${key ?? 'unknown'}`);
      const team = query.teamId;
      if (found.enterpriseInstall && team && team !== found.key && query.enterpriseId === found.key) {
        const at = now();
        const memo = `${found.key}:${team}`;
        if ((served.get(memo) ?? 0) < at.getTime()) {
          if (await installs.noteTeam(found.key, team, at)) await onServed?.(found.key, team);
          served.set(memo, at.getTime() + SERVED_MEMO_MS);
        }
      }
      return toBolt(found);
    },
    async deleteInstallation(query: InstallationQuery<boolean>) {
      const key = installationKey(query);
      if (key !== undefined) await installs.remove(key, now());
    },
  };
}

/** What Slack's oauth.v2.access said, as the core keeps it. */
export function fromBolt(i: BoltInstallation<'v2', boolean>): NewInstallation {
  const key = installationKey({ isEnterpriseInstall: i.isEnterpriseInstall ?? false, enterpriseId: i.enterprise?.id, teamId: i.team?.id });
  if (key === undefined) throw new Error('Slack installation without a team or enterprise id');
  if (!i.bot) throw new Error(`Slack installation ${key} has no bot token: does the app have a bot user (manifest.yml features.bot_user)?`);
  const details: Record<string, unknown> = {
    ...(i.appId && { appId: i.appId }),
    ...(i.team?.name && { teamName: i.team.name }),
    ...(i.enterprise?.name && { enterpriseName: i.enterprise.name }),
    ...(i.enterpriseUrl && { enterpriseUrl: i.enterpriseUrl }),
    ...(i.user.scopes && { userScopes: i.user.scopes }),
    ...(i.incomingWebhook && { incomingWebhook: i.incomingWebhook }),
    ...(i.metadata && { metadata: i.metadata }),
  };
  const secrets: Record<string, string> = {
    ...(i.user.token && { userToken: i.user.token }),
    ...(i.user.refreshToken && { userRefreshToken: i.user.refreshToken }),
    ...(i.user.expiresAt !== undefined && { userExpiresAt: String(i.user.expiresAt) }),
  };
  return {
    key,
    ...(i.team?.id && { teamId: i.team.id }),
    ...(i.enterprise?.id && { enterpriseId: i.enterprise.id }),
    enterpriseInstall: i.isEnterpriseInstall ?? false,
    botToken: i.bot.token,
    botUserId: i.bot.userId,
    ...(i.bot.id && { botId: i.bot.id }),
    scopes: i.bot.scopes,
    ...(i.bot.refreshToken && { refreshToken: i.bot.refreshToken }),
    ...(i.bot.expiresAt !== undefined && { expiresAt: i.bot.expiresAt }),
    ...(i.user.id && { installer: i.user.id }),
    details,
    secrets,
  };
}

/** An installation as Bolt's authorize wants it back. */
export function toBolt(i: Installation): BoltInstallation<'v2', boolean> {
  const d = i.details as { appId?: string; teamName?: string; enterpriseName?: string; enterpriseUrl?: string; userScopes?: string[]; metadata?: string };
  return {
    team: i.teamId ? { id: i.teamId, ...(d.teamName && { name: d.teamName }) } : undefined,
    enterprise: i.enterpriseId ? { id: i.enterpriseId, ...(d.enterpriseName && { name: d.enterpriseName }) } : undefined,
    user: {
      id: i.installer ?? '',
      token: i.secrets.userToken,
      scopes: d.userScopes,
      ...(i.secrets.userRefreshToken && { refreshToken: i.secrets.userRefreshToken, expiresAt: Number(i.secrets.userExpiresAt) }),
    },
    bot: {
      token: i.botToken,
      scopes: i.scopes,
      id: i.botId ?? '',
      userId: i.botUserId ?? '',
      ...(i.refreshToken && { refreshToken: i.refreshToken }),
      ...(i.expiresAt !== undefined && { expiresAt: i.expiresAt }),
    },
    ...(d.appId && { appId: d.appId }),
    ...(d.enterpriseUrl && { enterpriseUrl: d.enterpriseUrl }),
    ...(d.metadata && { metadata: d.metadata }),
    tokenType: 'bot',
    isEnterpriseInstall: i.enterpriseInstall,
    authVersion: 'v2',
  } as BoltInstallation<'v2', boolean>;
}
