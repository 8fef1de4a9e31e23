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
 */
import { existsSync, readFileSync } from 'node:fs';

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
