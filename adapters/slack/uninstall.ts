/**
 * A workspace leaving (many workspaces, OAuth): `app_uninstalled`, or `tokens_revoked` for the
 * bot's token, removes its installation (tokens wiped at once) and pauses its digests. Its data
 * (subscriptions, their runs, what its channels were sent, the installation row) is deleted
 * SLACK_RETENTION_DAYS later by {@link purgeRemovedWorkspaces}; a reinstall before then clears
 * the removal and resumes the digests the uninstall paused. Each step is logged with the workspace.
 *
 * Button state and seen event ids are not kept per workspace: they expire by themselves (30 days,
 * one day).
 */
import type { App as BoltApp } from '@slack/bolt';
import type { App } from '../../src/app.js';
import { msg } from '../../src/i18n/index.js';
import type { Subscription } from '../../src/store/digests.js';
import type { InstallationStore } from '../../src/store/installations.js';
import { installationKey } from './installations.js';

const PAUSED_KEY = 'digest.pausedUninstalled';

/** What the adapter is told of installs and removals (for metrics). */
export type InstallationEvent = 'install' | 'uninstall' | 'authorize_failure';

export interface UninstallOptions {
  onEvent?: (event: InstallationEvent) => void;
}

/** Listens for `app_uninstalled` and `tokens_revoked` (Bolt calls these without authorize). */
export function registerUninstallEvents(bolt: BoltApp, app: App, installs: InstallationStore, options: UninstallOptions = {}): void {
  const removed = async (body: { team_id?: string; enterprise_id?: string; authorizations?: Array<{ is_enterprise_install?: boolean }> }, why: string) => {
    const enterpriseInstall = body.authorizations?.[0]?.is_enterprise_install === true;
    const key = installationKey({ isEnterpriseInstall: enterpriseInstall, enterpriseId: body.enterprise_id, teamId: body.team_id });
    if (key === undefined) return;
    if (await workspaceRemoved(app, installs, key, body.team_id, why)) options.onEvent?.('uninstall');
  };
  bolt.event('app_uninstalled', async ({ body }) => removed(body, 'app_uninstalled'));
  bolt.event('tokens_revoked', async ({ body, event }) => {
    // Only the bot's token matters: a revoked user token leaves the bot working.
    if ((event.tokens.bot ?? []).length > 0) await removed(body, 'tokens_revoked');
  });
}

/**
 * Removes the installation under `key` and pauses the digests of `teamId`; false when it was
 * already removed (a redelivered event, the second of the two events).
 */
export async function workspaceRemoved(app: App, installs: InstallationStore, key: string, teamId: string | undefined, why: string): Promise<boolean> {
  const now = app.now();
  if (!(await installs.remove(key, now))) return false;
  const paused: number[] = [];
  for (const sub of await slackSubscriptions(app, teamId)) {
    if (sub.status !== 'active') continue;
    await app.digests.pause(sub.id, msg(PAUSED_KEY));
    paused.push(sub.id);
  }
  const retentionDays = app.config.slack?.oauth?.retentionDays ?? 0;
  app.log.info({ installation: key, team: teamId, why, pausedDigests: paused, deleteAfter: new Date(now.getTime() + retentionDays * 86_400_000).toISOString() }, 'Slack: workspace removed the app; its digests are paused and its data is kept until the retention period ends');
  return true;
}

/** After a (re)install: the digests an uninstall paused run again. */
export async function workspaceInstalled(app: App, teamId: string | undefined): Promise<number[]> {
  const resumed: number[] = [];
  for (const sub of await slackSubscriptions(app, teamId)) {
    if (sub.status !== 'paused' || !pausedByUninstall(sub)) continue;
    const { id: _id, status: _s, lastSlot: _l, lastDigestAt: _d, pausedReason: _p, ...fields } = sub;
    await app.digests.subscribe(fields);
    resumed.push(sub.id);
  }
  return resumed;
}

/**
 * Deletes the data of workspaces removed more than `retentionDays` before `now`: their
 * subscriptions (with their runs and their channels' ledger), reading lists and archives, and
 * the installation row. Returns
 * the installations purged.
 * @example await purgeRemovedWorkspaces(app, installs, new Date(), 30);
 */
export async function purgeRemovedWorkspaces(app: App, installs: InstallationStore, now: Date, retentionDays: number): Promise<string[]> {
  const due = await installs.removedBefore(new Date(now.getTime() - retentionDays * 86_400_000));
  for (const removed of due) {
    const deleted = removed.teamId === undefined ? 0 : await app.digests.forgetWorkspace('slack', removed.teamId);
    const listed = removed.teamId === undefined ? 0 : await app.stores.readingLists.forgetTeam('slack', removed.teamId);
    await installs.forget(removed.key);
    app.log.info(
      { installation: removed.key, team: removed.teamId, removedAt: removed.removedAt, retentionDays, deletedSubscriptions: deleted, deletedListEntries: listed },
      'Slack: deleted the data of a workspace that removed the app',
    );
  }
  return due.map((r) => r.key);
}

async function slackSubscriptions(app: App, teamId: string | undefined): Promise<Subscription[]> {
  if (teamId === undefined) return [];
  return (await app.digests.all()).filter((s) => s.platform === 'slack' && s.workspace === teamId);
}

function pausedByUninstall(sub: Subscription): boolean {
  try {
    return (JSON.parse(sub.pausedReason ?? '{}') as { key?: unknown }).key === PAUSED_KEY;
  } catch {
    return false;
  }
}

/** How often removed workspaces whose retention has ended are looked for. */
const PURGE_EVERY_MS = 3_600_000;

/** Deletes the data of removed workspaces once their retention ends: now, then hourly (the timer does not keep the process alive). */
export function startPurging(app: App, installs: InstallationStore, retentionDays: number, log: App['log']): NodeJS.Timeout {
  const purge = () => void purgeRemovedWorkspaces(app, installs, app.now(), retentionDays).catch((err: unknown) => log.warn({ err }, 'Slack: could not delete the data of removed workspaces; trying again in an hour'));
  purge();
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  return timer;
}
