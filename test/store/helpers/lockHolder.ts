/**
 * Another process holding the database's write lock, as an import, a re-index or a sqlite3
 * shell left in a transaction does: BEGIN IMMEDIATE and a write, "locked" on stdout, then
 * nothing until a line arrives on stdin, when it commits and exits.
 *
 *   node --import tsx test/store/helpers/lockHolder.ts <database>
 */
import Database from 'better-sqlite3';

const db = new Database(process.argv[2]!);
db.pragma('busy_timeout = 5000');
db.exec('BEGIN IMMEDIATE');
db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('lock-holder', ?)").run(String(process.pid));
process.stdout.write('locked\n');
process.stdin.once('data', () => {
  db.exec('COMMIT');
  db.close();
  process.stdout.write('released\n');
  process.exit(0);
});
