/**
 * `npm start` spawned as a supervisor runs it (its own process, signals sent to the npm pid
 * only), or as a terminal or systemd does (in a process group of its own, signals sent to the
 * whole group), with its JSON log lines collected and waited on, and the process tree it started
 * listed so that a test can check none of it survives.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { processAlive } from '../../../../src/processes.js';

export const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));

/* eslint-disable @typescript-eslint/no-explicit-any */
export type LogLine = Record<string, any>;

export interface SpawnedBot {
  npm: ChildProcess;
  pid: number;
  /** Everything written to stderr so far (the log). */
  readonly stderr: string;
  readonly stdout: string;
  lines(): LogLine[];
  /** The first log line (already written or to come) that matches. */
  waitForLog(match: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code (or the signal that ended npm). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Sends `signal` to the whole process group, npm and the bot alike, as Ctrl-C on a terminal,
   * `systemctl stop` (KillMode=control-group) or `kill -TERM -<pgid>` do. Needs `group`.
   */
  signalGroup(signal: NodeJS.Signals): void;
  /** Ends whatever is left of the tree (test cleanup only). */
  kill(): void;
}

export interface SpawnOptions {
  /** Runs npm in a process group of its own (it leads it), for {@link SpawnedBot.signalGroup}. */
  group?: boolean;
}

/** Spawns `npm start` in the repository with `env` on top of the environment. */
export function spawnNpmStart(env: Record<string, string>, options: SpawnOptions = {}): SpawnedBot {
  return spawnNpm(['start'], env, options);
}

/** Spawns `npm <args>` (`start`, `run cli -- …`) in the repository with `env` on top of the environment. */
export function spawnNpm(args: string[], env: Record<string, string>, options: SpawnOptions = {}): SpawnedBot {
  const npm = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'], detached: options.group === true });
  let stderr = '';
  let stdout = '';
  const listeners = new Set<() => void>();
  npm.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const l of [...listeners]) l();
  });
  npm.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  // 'close', not 'exit': by then everything it wrote has been read.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => npm.on('close', (code, signal) => resolve({ code, signal })));
  const lines = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);
  let tree: number[] = [];
  return {
    npm,
    pid: npm.pid!,
    get stderr() {
      return stderr;
    },
    get stdout() {
      return stdout;
    },
    lines,
    waitForLog(match, what, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = lines().find(match);
          if (!found) return false;
          listeners.delete(onData);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const onData = () => void check();
        const timer = setTimeout(() => {
          listeners.delete(onData);
          reject(new Error(`no log line "${what}" within ${timeoutMs} ms; log:\n${stderr}`));
        }, timeoutMs);
        if (!check()) listeners.add(onData);
        void exited.then(() => {
          if (listeners.has(onData)) {
            listeners.delete(onData);
            clearTimeout(timer);
            reject(new Error(`npm start exited before "${what}"; log:\n${stderr}`));
          }
        });
      });
    },
    exited,
    signalGroup(signal) {
      if (!options.group) throw new Error('signalGroup needs a bot spawned with { group: true }');
      process.kill(-npm.pid!, signal);
    },
    kill() {
      tree = tree.length > 0 ? tree : descendants(npm.pid!);
      for (const pid of [npm.pid!, ...tree]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
  };
}

/** Every process below `pid` (children, grandchildren, …), from ps. */
export function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const out: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of rows) {
      if (ppid === parent) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Whether a process with this pid still exists (a zombie awaiting its parent counts as gone). */
export const alive = processAlive;
