/**
 * Installation rows in PostgreSQL (table `installations`), shared by every instance: a workspace
 * installed through one instance is served by all. The logic is in `../installations.ts`.
 */
import type { InstallationRow, InstallationRows, InstallationTeamRow } from '../installations.js';
import type { Postgres } from './connection.js';

export class PgInstallationRows implements InstallationRows {
  constructor(private readonly db: Postgres) {}

  async upsert(row: InstallationRow): Promise<void> {
    await this.db.query(
      `INSERT INTO installations AS i (key, team_id, enterprise_id, enterprise_install, bot_user_id, scopes, installer, secret, data, installed_at, updated_at, removed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL)
       ON CONFLICT (key) DO UPDATE SET team_id = excluded.team_id, enterprise_id = excluded.enterprise_id, enterprise_install = excluded.enterprise_install,
         bot_user_id = excluded.bot_user_id, scopes = excluded.scopes, installer = excluded.installer, secret = excluded.secret, data = excluded.data,
         installed_at = CASE WHEN i.removed_at IS NULL THEN i.installed_at ELSE excluded.installed_at END,
         updated_at = excluded.updated_at, removed_at = NULL`,
      [row.key, row.team_id, row.enterprise_id, Boolean(row.enterprise_install), row.bot_user_id, row.scopes, row.installer, row.secret, row.data, row.installed_at, row.updated_at],
    );
  }

  async read(key: string): Promise<InstallationRow | undefined> {
    return (await this.db.query<InstallationRow>('SELECT * FROM installations WHERE key = $1', [key])).rows[0];
  }

  async markRemoved(key: string, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE installations SET removed_at = $2, secret = NULL WHERE key = $1 AND removed_at IS NULL', [key, at]);
    return rowCount === 1;
  }

  async removedBefore(before: string): Promise<InstallationRow[]> {
    return (await this.db.query<InstallationRow>('SELECT * FROM installations WHERE removed_at IS NOT NULL AND removed_at < $1 ORDER BY removed_at, key', [before])).rows;
  }

  async deleteRemoved(key: string, before: string): Promise<boolean> {
    const { rows } = await this.db.query<{ key: string }>(
      `WITH gone AS (DELETE FROM installations WHERE key = $1 AND removed_at IS NOT NULL AND removed_at < $2 RETURNING key),
         teams AS (DELETE FROM installation_teams WHERE installation_key IN (SELECT key FROM gone))
       SELECT key FROM gone`,
      [key, before],
    );
    return rows.length === 1;
  }

  async countActive(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM installations WHERE removed_at IS NULL');
    return Number(rows[0]?.n ?? 0);
  }

  async activeKeys(): Promise<string[]> {
    return (await this.db.query<{ key: string }>('SELECT key FROM installations WHERE removed_at IS NULL ORDER BY key COLLATE "C"')).rows.map((r) => r.key);
  }

  async coverTeams(key: string, teams: readonly string[], at: string): Promise<void> {
    await this.db.query(
      `INSERT INTO installation_teams AS t (team_id, installation_key, covered_at, revoked_at)
       SELECT team, $2, $3, NULL FROM unnest($1::text[]) AS team
       ON CONFLICT (team_id) DO UPDATE SET installation_key = excluded.installation_key, revoked_at = NULL,
         covered_at = CASE WHEN t.revoked_at IS NULL AND t.installation_key = excluded.installation_key THEN t.covered_at ELSE excluded.covered_at END`,
      [[...new Set(teams)], key, at],
    );
  }

  async learnTeam(key: string, team: string, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO installation_teams AS t (team_id, installation_key, covered_at, revoked_at) VALUES ($1, $2, $3, NULL)
       ON CONFLICT (team_id) DO UPDATE SET installation_key = excluded.installation_key, revoked_at = NULL, covered_at = excluded.covered_at
       WHERE t.revoked_at IS NOT NULL AND t.revoked_at < (SELECT installed_at FROM installations WHERE key = excluded.installation_key)`,
      [team, key, at],
    );
    return rowCount === 1;
  }

  async revokeTeams(key: string, teams: readonly string[], at: string): Promise<string[]> {
    const { rows } = await this.db.query<{ team_id: string }>(
      'UPDATE installation_teams SET revoked_at = $3 WHERE installation_key = $1 AND team_id = ANY($2::text[]) AND revoked_at IS NULL RETURNING team_id',
      [key, [...teams], at],
    );
    const revoked = new Set(rows.map((r) => r.team_id));
    return teams.filter((team) => revoked.has(team));
  }

  async teamRows(key: string): Promise<InstallationTeamRow[]> {
    return (await this.db.query<InstallationTeamRow>('SELECT * FROM installation_teams WHERE installation_key = $1 ORDER BY team_id COLLATE "C"', [key])).rows;
  }

  async keyServing(team: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ key: string }>(
      `SELECT key FROM (
         SELECT key, 0 AS own FROM installations WHERE key = $1 AND removed_at IS NULL
         UNION ALL
         SELECT t.installation_key, 1 FROM installation_teams t JOIN installations i ON i.key = t.installation_key
          WHERE t.team_id = $1 AND t.revoked_at IS NULL AND i.removed_at IS NULL
       ) AS serving ORDER BY own LIMIT 1`,
      [team],
    );
    return rows[0]?.key;
  }

  async revokedTeamsBefore(before: string): Promise<InstallationTeamRow[]> {
    return (await this.db.query<InstallationTeamRow>('SELECT * FROM installation_teams WHERE revoked_at IS NOT NULL AND revoked_at < $1 ORDER BY revoked_at, team_id COLLATE "C"', [before])).rows;
  }

  async deleteRevokedTeam(team: string, before: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM installation_teams WHERE team_id = $1 AND revoked_at IS NOT NULL AND revoked_at < $2', [team, before]);
    return rowCount === 1;
  }
}
