/**
 * Installation rows in PostgreSQL (table `installations`), shared by every instance: a workspace
 * installed through one instance is served by all. The logic is in `../installations.ts`.
 */
import type { InstallationRow, InstallationRows } from '../installations.js';
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

  async delete(key: string): Promise<void> {
    await this.db.query('DELETE FROM installations WHERE key = $1', [key]);
  }

  async countActive(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>('SELECT count(*) AS n FROM installations WHERE removed_at IS NULL');
    return Number(rows[0]?.n ?? 0);
  }
}
