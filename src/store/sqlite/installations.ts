/** Installation rows in the SQLite database (table `installations`; the logic is in `../installations.ts`). */
import type { InstallationRow, InstallationRows, InstallationTeamRow } from '../installations.js';
import type { Db } from './db.js';

export class SqliteInstallationRows implements InstallationRows {
  private readonly stmts;
  private readonly forget;
  private readonly cover;
  private readonly revoke;

  constructor(db: Db) {
    this.stmts = {
      upsert: db.prepare(`INSERT INTO installations (key, team_id, enterprise_id, enterprise_install, bot_user_id, scopes, installer, secret, data, installed_at, updated_at, removed_at)
        VALUES (@key, @team_id, @enterprise_id, @enterprise_install, @bot_user_id, @scopes, @installer, @secret, @data, @installed_at, @updated_at, NULL)
        ON CONFLICT (key) DO UPDATE SET team_id = excluded.team_id, enterprise_id = excluded.enterprise_id, enterprise_install = excluded.enterprise_install,
          bot_user_id = excluded.bot_user_id, scopes = excluded.scopes, installer = excluded.installer, secret = excluded.secret, data = excluded.data,
          installed_at = CASE WHEN installations.removed_at IS NULL THEN installations.installed_at ELSE excluded.installed_at END,
          updated_at = excluded.updated_at, removed_at = NULL`),
      read: db.prepare<[string], InstallationRow>('SELECT * FROM installations WHERE key = ?'),
      markRemoved: db.prepare<[string, string]>('UPDATE installations SET removed_at = ?, secret = NULL WHERE key = ? AND removed_at IS NULL'),
      removedBefore: db.prepare<[string], InstallationRow>('SELECT * FROM installations WHERE removed_at IS NOT NULL AND removed_at < ? ORDER BY removed_at, key'),
      deleteRemoved: db.prepare<[string, string]>('DELETE FROM installations WHERE key = ? AND removed_at IS NOT NULL AND removed_at < ?'),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM installations WHERE removed_at IS NULL'),
      activeKeys: db.prepare<[], { key: string }>('SELECT key FROM installations WHERE removed_at IS NULL ORDER BY key'),
      coverTeam: db.prepare<[string, string, string]>(`INSERT INTO installation_teams (team_id, installation_key, covered_at, revoked_at) VALUES (?, ?, ?, NULL)
        ON CONFLICT (team_id) DO UPDATE SET installation_key = excluded.installation_key, revoked_at = NULL,
          covered_at = CASE WHEN installation_teams.revoked_at IS NULL AND installation_teams.installation_key = excluded.installation_key THEN installation_teams.covered_at ELSE excluded.covered_at END`),
      learnTeam: db.prepare<[string, string, string]>(`INSERT INTO installation_teams (team_id, installation_key, covered_at, revoked_at) VALUES (?, ?, ?, NULL)
        ON CONFLICT (team_id) DO UPDATE SET installation_key = excluded.installation_key, revoked_at = NULL, covered_at = excluded.covered_at
        WHERE installation_teams.revoked_at IS NOT NULL
          AND installation_teams.revoked_at < (SELECT installed_at FROM installations WHERE key = excluded.installation_key)`),
      revokeTeam: db.prepare<[string, string, string]>('UPDATE installation_teams SET revoked_at = ? WHERE installation_key = ? AND team_id = ? AND revoked_at IS NULL'),
      teamRows: db.prepare<[string], InstallationTeamRow>('SELECT * FROM installation_teams WHERE installation_key = ? ORDER BY team_id'),
      keyServing: db.prepare<[string, string], { key: string }>(`SELECT key FROM (
          SELECT key, 0 AS own FROM installations WHERE key = ? AND removed_at IS NULL
          UNION ALL
          SELECT t.installation_key, 1 FROM installation_teams t JOIN installations i ON i.key = t.installation_key
           WHERE t.team_id = ? AND t.revoked_at IS NULL AND i.removed_at IS NULL
        ) ORDER BY own LIMIT 1`),
      revokedTeamsBefore: db.prepare<[string], InstallationTeamRow>('SELECT * FROM installation_teams WHERE revoked_at IS NOT NULL AND revoked_at < ? ORDER BY revoked_at, team_id'),
      deleteTeams: db.prepare<[string]>('DELETE FROM installation_teams WHERE installation_key = ?'),
      deleteRevokedTeam: db.prepare<[string, string]>('DELETE FROM installation_teams WHERE team_id = ? AND revoked_at IS NOT NULL AND revoked_at < ?'),
    };
    this.forget = db.transaction((key: string, before: string) => {
      if (this.stmts.deleteRemoved.run(key, before).changes === 0) return false;
      this.stmts.deleteTeams.run(key);
      return true;
    });
    this.cover = db.transaction((key: string, teams: readonly string[], at: string) => {
      for (const team of teams) this.stmts.coverTeam.run(team, key, at);
    });
    this.revoke = db.transaction((key: string, teams: readonly string[], at: string) => teams.filter((team) => this.stmts.revokeTeam.run(at, key, team).changes === 1));
  }

  async upsert(row: InstallationRow): Promise<void> {
    this.stmts.upsert.run({ ...row, enterprise_install: row.enterprise_install ? 1 : 0 });
  }

  async read(key: string): Promise<InstallationRow | undefined> {
    return this.stmts.read.get(key);
  }

  async markRemoved(key: string, at: string): Promise<boolean> {
    return this.stmts.markRemoved.run(at, key).changes === 1;
  }

  async removedBefore(before: string): Promise<InstallationRow[]> {
    return this.stmts.removedBefore.all(before);
  }

  async deleteRemoved(key: string, before: string): Promise<boolean> {
    return this.forget(key, before);
  }

  async countActive(): Promise<number> {
    return this.stmts.count.get()!.n;
  }

  async activeKeys(): Promise<string[]> {
    return this.stmts.activeKeys.all().map((r) => r.key);
  }

  async coverTeams(key: string, teams: readonly string[], at: string): Promise<void> {
    this.cover(key, teams, at);
  }

  async learnTeam(key: string, team: string, at: string): Promise<boolean> {
    return this.stmts.learnTeam.run(team, key, at).changes === 1;
  }

  async revokeTeams(key: string, teams: readonly string[], at: string): Promise<string[]> {
    return this.revoke(key, teams, at);
  }

  async teamRows(key: string): Promise<InstallationTeamRow[]> {
    return this.stmts.teamRows.all(key);
  }

  async keyServing(team: string): Promise<string | undefined> {
    return this.stmts.keyServing.get(team, team)?.key;
  }

  async revokedTeamsBefore(before: string): Promise<InstallationTeamRow[]> {
    return this.stmts.revokedTeamsBefore.all(before);
  }

  async deleteRevokedTeam(team: string, before: string): Promise<boolean> {
    return this.stmts.deleteRevokedTeam.run(team, before).changes === 1;
  }
}
