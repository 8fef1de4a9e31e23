/**
 * Whether a process still runs: the one check behind every "its holder is gone, take over" of
 * this codebase (a job lease held by a pid of this machine in `src/sources/jobs.ts`, the index
 * writer's lock and temp files in `src/search/`).
 *
 * `kill(pid, 0)` alone is not that check. A process killed with SIGKILL (or crashed) stays a
 * zombie until its parent reaps it, and a zombie still takes signal 0, so a backfill restarted at
 * once by a supervisor (systemd's `Restart=always`) would find its killed predecessor "running"
 * and refuse, again and again. A zombie has let go of everything (files, locks, sockets): it is
 * gone, and Linux says so in `/proc/<pid>/stat` (state `Z`, or `X` while it is being removed).
 * Where there is no /proc (macOS), signal 0 is all there is to go by.
 *
 * Leases name their holder as {@link processOwner} writes it (a source job's in
 * `src/sources/jobs.ts`, a digest run's in `src/digest/runner.ts`), so that a process of the
 * same machine can tell its holder is gone ({@link deadOwnerHere}).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Whether this system describes its processes in /proc (Linux). */
const PROC = existsSync('/proc/self/stat');

/**
 * Whether process `pid` exists and has not ended: false for a pid nobody has and for a zombie
 * awaiting its parent; true for a live process, also one of another user (EPERM). Not a pid (0,
 * negative, fractional): false.
 * @example processAlive(process.pid) // true
 * @example processAlive(killedButNotReaped.pid) // false
 */
export function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists, and belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !ended(pid);
}

/** Whether /proc says the process has ended and only awaits its parent (a zombie). */
function ended(pid: number): boolean {
  if (!PROC) return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // Gone since the signal reached it (reaped meanwhile).
    return true;
  }
  // "pid (comm) S …": the name may hold spaces and parentheses; the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X' || state === 'x';
}

/** This process, as a lease owner: host, pid and a random part. */
export function processOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/**
 * Whether a lease owner is a process of this machine that no longer runs (killed, crashed; a
 * zombie not yet reaped counts as gone): its lease need not run out before another process takes
 * the job over. Owners elsewhere, or whose pid is alive (or reused), are left to their lease's
 * expiry.
 * @example deadOwnerHere(`${hostname()}:999999:ab12cd34`) // true
 */
export function deadOwnerHere(owner: string): boolean {
  const match = /^(.*):(\d+):[0-9a-f]+$/.exec(owner);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  return pid !== process.pid && !processAlive(pid);
}
