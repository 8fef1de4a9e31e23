/**
 * Installations of the app in chat workspaces (Slack's OAuth install flow): one per workspace,
 * keyed by the enterprise id for an org-wide install, else by the team id. The bot token, its
 * refresh token (token rotation) and any user token are sealed ({@link TokenBox}) before they are
 * written; what is not secret (ids, scopes, who installed it, when) is kept in the clear so that
 * an operator can read it.
 *
 * An uninstall does not delete the row at once: its tokens are wiped and it is marked removed,
 * so that the workspace's data can be deleted after the retention period, and a reinstall within
 * it finds everything again. An org-wide install (Enterprise Grid) serves the workspaces of its
 * organization that the app was added to; which ones is kept beside it, so that work started
 * without a request (a digest) finds its token, and an uninstall reaches every workspace.
 *
 * SQL lives in `sqlite/installations.ts` and `postgres/installations.ts` (rows only); this module turns rows into installations, held to the contract suite
 * (`test/store/installations.contract.test.ts`).
 */
import type { TokenBox } from './tokenBox.js';

export interface Installation {
  /** The enterprise id of an org-wide install, else the team id. */
  key: string;
  teamId?: string;
  enterpriseId?: string;
  enterpriseInstall: boolean;
  botToken: string;
  botUserId?: string;
  botId?: string;
  scopes: string[];
  /** Token rotation: the refresh token and when the bot token expires (Unix seconds). */
  refreshToken?: string;
  expiresAt?: number;
  /** The user who installed the app. */
  installer?: string;
  /** What else the platform said that is not secret (app id, names, URLs), as JSON. */
  details: Record<string, unknown>;
  /** Secret extras (a user token), sealed like the bot token. */
  secrets: Record<string, string>;
  installedAt: string;
  updatedAt: string;
}

export type NewInstallation = Omit<Installation, 'installedAt' | 'updatedAt'>;

/** An installation removed (uninstalled, tokens revoked) whose data is still kept. */
export interface RemovedInstallation {
  key: string;
  teamId?: string;
  enterpriseId?: string;
  removedAt: string;
}

/** A workspace taken out of an org-wide installation whose data is still kept. */
export interface RemovedTeam {
  teamId: string;
  /** The org-wide installation it was in. */
  key: string;
  removedAt: string;
}

export interface InstallationStore {
  /**
   * Saves an installation (a new one, a reinstall, a rotated token): replaces what was stored
   * under its key, and clears a removal. A reinstall keeps the first install's time unless it
   * had been removed.
   */
  save(installation: NewInstallation, now: Date): Promise<Installation>;
  /** The installation under `key`, unless there is none or it was removed. */
  get(key: string): Promise<Installation | undefined>;
  /** Marks the installation removed and wipes its tokens; false when there was none to remove. */
  remove(key: string, now: Date): Promise<boolean>;
  /** Installations removed before `before`, oldest first (their data is due for deletion). */
  removedBefore(before: Date): Promise<RemovedInstallation[]>;
  /**
   * Deletes the row for good, with its workspaces' (after their data is gone), unless it was
   * installed again or removed since `before`; whether it did.
   */
  forget(key: string, before: Date): Promise<boolean>;
  /** Installations in use (not removed). */
  count(): Promise<number>;
  /** The keys of the installations in use, in order. */
  keys(): Promise<string[]>;
  /**
   * Org-wide installs (Enterprise Grid): workspaces of the organization that the app was added
   * to (`team_access_granted`) are served with its token. Adding a workspace again clears its
   * removal.
   */
  addTeams(key: string, teams: readonly string[], now: Date): Promise<void>;
  /**
   * A request from workspace `teamId` came through the org-wide install `key`: the workspace is
   * served from now on, if it was unknown, or was taken out before the install was last
   * (re)installed (an uninstall took it out). One taken out since is not brought back: a late
   * or retried request cannot undo `team_access_revoked`. Whether it is newly served.
   */
  noteTeam(key: string, teamId: string, now: Date): Promise<boolean>;
  /** Workspaces taken out of an org-wide install (`team_access_revoked`, an uninstall); those that were in it. */
  removeTeams(key: string, teams: readonly string[], now: Date): Promise<string[]>;
  /** The workspaces an org-wide install serves (not taken out). */
  teamsOf(key: string): Promise<string[]>;
  /** The installation serving workspace `teamId`: its own, else its organization's; undefined when none. */
  keyServing(teamId: string): Promise<string | undefined>;
  /** Workspaces taken out of an org-wide install before `before`, oldest first (their data is due for deletion). */
  removedTeamsBefore(before: Date): Promise<RemovedTeam[]>;
  /** Deletes a workspace's entry for good (after its data is gone), unless it was added again or taken out since `before`; whether it did. */
  forgetTeam(teamId: string, before: Date): Promise<boolean>;
}

/** An installation row as both stores keep it. */
export interface InstallationRow {
  key: string;
  team_id: string | null;
  enterprise_id: string | null;
  enterprise_install: boolean | number;
  bot_user_id: string | null;
  scopes: string;
  installer: string | null;
  /** Sealed JSON of every token; null once removed. */
  secret: string | null;
  /** JSON: bot id, token expiry, details. */
  data: string;
  installed_at: string;
  updated_at: string;
  removed_at: string | null;
}

/** A workspace an org-wide installation serves, as both stores keep it. */
export interface InstallationTeamRow {
  team_id: string;
  installation_key: string;
  covered_at: string;
  revoked_at: string | null;
}

/** Where installations are kept: two tables (installations, the workspaces of org-wide ones), in SQLite or PostgreSQL. */
export interface InstallationRows {
  /** Writes the row; a row already there keeps its `installed_at` unless it was removed. */
  upsert(row: InstallationRow): Promise<void>;
  read(key: string): Promise<InstallationRow | undefined>;
  /** Sets `removed_at` and clears `secret` of a row not yet removed; whether there was one. */
  markRemoved(key: string, at: string): Promise<boolean>;
  removedBefore(before: string): Promise<InstallationRow[]>;
  /** Deletes the row, if removed before `before`, and then its workspaces' rows; whether it did. */
  deleteRemoved(key: string, before: string): Promise<boolean>;
  countActive(): Promise<number>;
  activeKeys(): Promise<string[]>;
  /** Writes `teams` as served by `key`, clearing a revocation; `covered_at` stays unless it was revoked. */
  coverTeams(key: string, teams: readonly string[], at: string): Promise<void>;
  /** Writes `team` as served by `key` if it has no row, or its row was revoked before `key` was installed; whether it wrote. */
  learnTeam(key: string, team: string, at: string): Promise<boolean>;
  /** Sets `revoked_at` of those of `teams` that `key` serves and are not revoked; the teams it set. */
  revokeTeams(key: string, teams: readonly string[], at: string): Promise<string[]>;
  teamRows(key: string): Promise<InstallationTeamRow[]>;
  /** The key serving `team`: its own installation (not removed), else the org-wide one (not removed) that serves it (not revoked). */
  keyServing(team: string): Promise<string | undefined>;
  revokedTeamsBefore(before: string): Promise<InstallationTeamRow[]>;
  /** Deletes the team's row if it was revoked before `before`; whether it did. */
  deleteRevokedTeam(team: string, before: string): Promise<boolean>;
}

interface Sealed {
  botToken: string;
  refreshToken?: string;
  secrets: Record<string, string>;
}

/**
 * The installation store over any {@link InstallationRows}, sealing tokens with `box`.
 * @example const installations = new SealedInstallationStore(stores.installationRows, tokenBox(key));
 */
export class SealedInstallationStore implements InstallationStore {
  constructor(
    private readonly rows: InstallationRows,
    private readonly box: TokenBox,
  ) {}

  async save(inst: NewInstallation, now: Date): Promise<Installation> {
    const sealed: Sealed = { botToken: inst.botToken, ...(inst.refreshToken && { refreshToken: inst.refreshToken }), secrets: inst.secrets };
    const at = now.toISOString();
    await this.rows.upsert({
      key: inst.key,
      team_id: inst.teamId ?? null,
      enterprise_id: inst.enterpriseId ?? null,
      enterprise_install: inst.enterpriseInstall,
      bot_user_id: inst.botUserId ?? null,
      scopes: inst.scopes.join(','),
      installer: inst.installer ?? null,
      secret: this.box.seal(JSON.stringify(sealed), inst.key),
      data: JSON.stringify({ ...(inst.botId && { botId: inst.botId }), ...(inst.expiresAt !== undefined && { expiresAt: inst.expiresAt }), details: inst.details }),
      installed_at: at,
      updated_at: at,
      removed_at: null,
    });
    return (await this.get(inst.key))!;
  }

  async get(key: string): Promise<Installation | undefined> {
    const row = await this.rows.read(key);
    if (!row || row.removed_at !== null || row.secret === null) return undefined;
    const sealed = JSON.parse(this.box.open(row.secret, row.key)) as Sealed;
    const data = JSON.parse(row.data) as { botId?: string; expiresAt?: number; details?: Record<string, unknown> };
    return {
      key: row.key,
      ...(row.team_id !== null && { teamId: row.team_id }),
      ...(row.enterprise_id !== null && { enterpriseId: row.enterprise_id }),
      enterpriseInstall: row.enterprise_install === true || row.enterprise_install === 1,
      botToken: sealed.botToken,
      ...(row.bot_user_id !== null && { botUserId: row.bot_user_id }),
      ...(data.botId && { botId: data.botId }),
      scopes: row.scopes === '' ? [] : row.scopes.split(','),
      ...(sealed.refreshToken && { refreshToken: sealed.refreshToken }),
      ...(data.expiresAt !== undefined && { expiresAt: data.expiresAt }),
      ...(row.installer !== null && { installer: row.installer }),
      details: data.details ?? {},
      secrets: sealed.secrets ?? {},
      installedAt: row.installed_at,
      updatedAt: row.updated_at,
    };
  }

  remove(key: string, now: Date): Promise<boolean> {
    return this.rows.markRemoved(key, now.toISOString());
  }

  async removedBefore(before: Date): Promise<RemovedInstallation[]> {
    const rows = await this.rows.removedBefore(before.toISOString());
    return rows.map((row) => ({
      key: row.key,
      ...(row.team_id !== null && { teamId: row.team_id }),
      ...(row.enterprise_id !== null && { enterpriseId: row.enterprise_id }),
      removedAt: row.removed_at!,
    }));
  }

  forget(key: string, before: Date): Promise<boolean> {
    return this.rows.deleteRemoved(key, before.toISOString());
  }

  count(): Promise<number> {
    return this.rows.countActive();
  }

  keys(): Promise<string[]> {
    return this.rows.activeKeys();
  }

  addTeams(key: string, teams: readonly string[], now: Date): Promise<void> {
    return teams.length === 0 ? Promise.resolve() : this.rows.coverTeams(key, [...new Set(teams)], now.toISOString());
  }

  noteTeam(key: string, teamId: string, now: Date): Promise<boolean> {
    return this.rows.learnTeam(key, teamId, now.toISOString());
  }

  removeTeams(key: string, teams: readonly string[], now: Date): Promise<string[]> {
    return teams.length === 0 ? Promise.resolve([]) : this.rows.revokeTeams(key, [...new Set(teams)], now.toISOString());
  }

  async teamsOf(key: string): Promise<string[]> {
    return (await this.rows.teamRows(key)).filter((t) => t.revoked_at === null).map((t) => t.team_id);
  }

  keyServing(teamId: string): Promise<string | undefined> {
    return this.rows.keyServing(teamId);
  }

  async removedTeamsBefore(before: Date): Promise<RemovedTeam[]> {
    return (await this.rows.revokedTeamsBefore(before.toISOString())).map((t) => ({ teamId: t.team_id, key: t.installation_key, removedAt: t.revoked_at! }));
  }

  forgetTeam(teamId: string, before: Date): Promise<boolean> {
    return this.rows.deleteRevokedTeam(teamId, before.toISOString());
  }
}
