/** Installation rows in the SQLite database (table `installations`; the logic is in `../installations.ts`). */
import type { InstallationRow, InstallationRows } from '../installations.js';
import type { Db } from './db.js';

export class SqliteInstallationRows implements InstallationRows {
  private readonly stmts;

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
      delete: db.prepare<[string]>('DELETE FROM installations WHERE key = ?'),
      count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM installations WHERE removed_at IS NULL'),
    };
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

  async delete(key: string): Promise<void> {
    this.stmts.delete.run(key);
  }

  async countActive(): Promise<number> {
    return this.stmts.count.get()!.n;
  }
}
