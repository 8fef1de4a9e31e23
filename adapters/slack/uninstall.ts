/**
 * A workspace leaving (many workspaces, OAuth): `app_uninstalled`, or `tokens_revoked` for the
 * bot's token, removes its installation (tokens wiped at once) and pauses its digests. Its data
 * (subscriptions, their runs, what its channels were sent, reading lists, the installation row)
 * is deleted SLACK_RETENTION_DAYS later by {@link purgeRemovedWorkspaces}; a reinstall before then
 * clears the removal and resumes the digests the uninstall paused. Each step is logged with the
 * workspace.
 *
 * An org-wide install (Enterprise Grid) leaves all the workspaces it served at once; a workspace
 * an org admin takes the app out of (`team_access_revoked`) leaves alone, and comes back with
 * `team_access_granted`, on the same terms.
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

/** What Bolt hands a listener of an event, as far as these listeners read it. */
interface EventBody {
  team_id?: string;
  enterprise_id?: string | null;
  authorizations?: Array<{ enterprise_id?: string | null; is_enterprise_install?: boolean }>;
}

/**
 * Listens for `app_uninstalled` and `tokens_revoked` (Bolt calls these without authorize), and
 * for an org-wide install's `team_access_granted` and `team_access_revoked`.
 */
export function registerUninstallEvents(bolt: BoltApp, app: App, installs: InstallationStore, options: UninstallOptions = {}): void {
  const removed = async (body: EventBody, why: string) => {
    const enterpriseInstall = body.authorizations?.[0]?.is_enterprise_install === true;
    const key = installationKey({ isEnterpriseInstall: enterpriseInstall, enterpriseId: enterpriseOf(body), teamId: body.team_id });
    if (key === undefined) return;
    if (await workspaceRemoved(app, installs, key, why)) options.onEvent?.('uninstall');
  };
  bolt.event('app_uninstalled', async ({ body }) => removed(body, 'app_uninstalled'));
  bolt.event('tokens_revoked', async ({ body, event }) => {
    // Only the bot's token matters: a revoked user token leaves the bot working.
    const bot: unknown = (event.tokens as { bot?: unknown } | null | undefined)?.bot;
    if (Array.isArray(bot) && bot.length > 0) await removed(body, 'tokens_revoked');
  });
  bolt.event('team_access_granted', async ({ body, event }) => {
    const key = enterpriseOf(body);
    if (key !== undefined) await teamsAdded(app, installs, key, teamIds(event.team_ids));
  });
  bolt.event('team_access_revoked', async ({ body, event }) => {
    const key = enterpriseOf(body);
    if (key !== undefined) await teamsRemoved(app, installs, key, teamIds(event.team_ids));
  });
}

/** Request data: the workspace ids of a team_access event, as strings, or none. */
function teamIds(ids: unknown): string[] {
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

function enterpriseOf(body: EventBody): string | undefined {
  return body.authorizations?.[0]?.enterprise_id ?? body.enterprise_id ?? undefined;
}

/**
 * Removes the installation under `key` and pauses the digests of the workspaces it served (its
 * team, or every workspace of an org-wide install, which leave with it) that no other
 * installation serves; false when it was already removed (a redelivered event, the second of
 * the two events).
 */
export async function workspaceRemoved(app: App, installs: InstallationStore, key: string, why: string): Promise<boolean> {
  const now = app.now();
  if (!(await installs.remove(key, now))) return false;
  const orgTeams = await installs.removeTeams(key, await installs.teamsOf(key), now);
  const teams = orgTeams.length > 0 ? orgTeams : [key];
  const paused = await pauseDigests(app, await unserved(installs, teams));
  const retentionDays = app.config.slack?.oauth?.retentionDays ?? 0;
  app.log.info({ installation: key, teams, why, pausedDigests: paused, deleteAfter: deleteAfter(now, retentionDays) }, 'Slack: workspace removed the app; its digests are paused and its data is kept until the retention period ends');
  return true;
}

/**
 * After a (re)install under `key`: the digests an uninstall paused run again. An org-wide
 * install is in no workspace yet: its workspaces resume as they are added ({@link teamsAdded},
 * {@link teamServed}).
 */
export async function workspaceInstalled(app: App, installs: InstallationStore, key: string): Promise<number[]> {
  const teams = await installs.teamsOf(key);
  return resumeDigests(app, teams.length > 0 ? teams : [key]);
}

/** `team_access_granted`: an org-wide install now serves `teams`; digests paused when they left resume. */
export async function teamsAdded(app: App, installs: InstallationStore, key: string, teams: readonly string[]): Promise<void> {
  await installs.addTeams(key, teams, app.now());
  const resumed = await resumeDigests(app, teams);
  app.log.info({ installation: key, teams, resumedDigests: resumed }, 'Slack: an org-wide install was added to workspaces');
}

/** A request came from a workspace an org-wide install did not serve yet ({@link InstallationStore.noteTeam}): it does now. */
export async function teamServed(app: App, key: string, team: string): Promise<void> {
  const resumed = await resumeDigests(app, [team]);
  app.log.info({ installation: key, team, resumedDigests: resumed }, 'Slack: an org-wide install serves a workspace it had not served');
}

/** `team_access_revoked`: the workspaces taken out of an org-wide install pause their digests (unless served otherwise); their data goes after retention. */
export async function teamsRemoved(app: App, installs: InstallationStore, key: string, teams: readonly string[]): Promise<void> {
  const now = app.now();
  const removed = await installs.removeTeams(key, teams, now);
  if (removed.length === 0) return;
  const paused = await pauseDigests(app, await unserved(installs, removed));
  const retentionDays = app.config.slack?.oauth?.retentionDays ?? 0;
  app.log.info({ installation: key, teams: removed, pausedDigests: paused, deleteAfter: deleteAfter(now, retentionDays) }, 'Slack: workspaces were taken out of an org-wide install; their digests are paused and their data is kept until the retention period ends');
}

/**
 * Deletes the data of workspaces removed more than `retentionDays` before `now`: their
 * subscriptions (with their runs and their channels' ledger), reading lists and archives, its
 * members' ratings and follows, then their entry. A workspace that another installation serves
 * by then (its own install after an org-wide one left it, or the reverse) keeps its data, and an
 * entry added back meanwhile is kept. Returns the workspaces and installations whose entries went.
 * @example await purgeRemovedWorkspaces(app, installs, new Date(), 30);
 */
export async function purgeRemovedWorkspaces(app: App, installs: InstallationStore, now: Date, retentionDays: number): Promise<string[]> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  const purged: string[] = [];
  // Workspaces taken out of org-wide installs first: an uninstalled org-wide install's are among them.
  for (const removed of await installs.removedTeamsBefore(before)) {
    const deleted = await forgetData(app, installs, removed.teamId);
    if (!(await installs.forgetTeam(removed.teamId, before))) continue;
    purged.push(removed.teamId);
    app.log.info({ installation: removed.key, team: removed.teamId, removedAt: removed.removedAt, retentionDays, ...deleted }, 'Slack: deleted the data of a workspace taken out of an org-wide install');
  }
  for (const removed of await installs.removedBefore(before)) {
    const deleted = removed.teamId === undefined ? undefined : await forgetData(app, installs, removed.teamId);
    if (!(await installs.forget(removed.key, before))) continue;
    purged.push(removed.key);
    app.log.info({ installation: removed.key, team: removed.teamId, removedAt: removed.removedAt, retentionDays, ...deleted }, 'Slack: deleted the data of a workspace that removed the app');
  }
  return purged;
}

/** Deletes the data of `team`, unless an installation serves it. */
async function forgetData(
  app: App,
  installs: InstallationStore,
  team: string,
): Promise<{ deletedSubscriptions: number; deletedListEntries: number; deletedRatings: number } | { keptFor: string }> {
  const serving = await installs.keyServing(team);
  if (serving !== undefined) return { keptFor: serving };
  return {
    deletedSubscriptions: await app.digests.forgetWorkspace('slack', team),
    deletedListEntries: await app.stores.readingLists.forgetTeam('slack', team),
    deletedRatings: await app.stores.ratings.forgetTeam('slack', team),
  };
}

/** Those of `teams` that no installation serves. */
async function unserved(installs: InstallationStore, teams: readonly string[]): Promise<string[]> {
  const left: string[] = [];
  for (const team of teams) if ((await installs.keyServing(team)) === undefined) left.push(team);
  return left;
}

/** Pauses the active digests of `teams`, saying why; their ids. */
async function pauseDigests(app: App, teams: readonly string[]): Promise<number[]> {
  const paused: number[] = [];
  for (const sub of await slackSubscriptions(app, teams)) {
    if (sub.status !== 'active') continue;
    await app.digests.pause(sub.id, msg(PAUSED_KEY));
    paused.push(sub.id);
  }
  return paused;
}

/** Resumes the digests of `teams` that a removal paused; their ids. */
async function resumeDigests(app: App, teams: readonly string[]): Promise<number[]> {
  const resumed: number[] = [];
  for (const sub of await slackSubscriptions(app, teams)) {
    if (sub.status !== 'paused' || !pausedByUninstall(sub)) continue;
    const { id: _id, status: _s, lastSlot: _l, lastDigestAt: _d, pausedReason: _p, ...fields } = sub;
    await app.digests.subscribe(fields);
    resumed.push(sub.id);
  }
  return resumed;
}

async function slackSubscriptions(app: App, teams: readonly string[]): Promise<Subscription[]> {
  if (teams.length === 0) return [];
  const wanted = new Set(teams);
  return (await app.digests.all()).filter((s) => s.platform === 'slack' && wanted.has(s.workspace));
}

const deleteAfter = (now: Date, retentionDays: number) => new Date(now.getTime() + retentionDays * 86_400_000).toISOString();

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
