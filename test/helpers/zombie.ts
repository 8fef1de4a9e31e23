/**
 * A real zombie, as a process killed with SIGKILL is until its parent reaps it: a `sleep` started
 * in the background by a shell that then becomes another `sleep` (exec), which never reaps, and
 * killed. Linux keeps its pid, signal 0 still reaches it, and /proc says state Z.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';

export interface Zombie {
  pid: number;
  /** Ends the parent: init reaps the zombie. */
  dispose(): void;
}

/** The state letter /proc gives a process (R, S, Z …), or undefined when there is none. */
export function procState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

/** The command name /proc gives a process, or undefined when there is none. */
function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Starts `command` (a shell command line) under a parent that never reaps it; resolves its pid
 * and a way to end the parent. Kill the pid with SIGKILL and it stays a zombie.
 * @example const child = await unreapedChild('sleep 60'); process.kill(child.pid, 'SIGKILL');
 */
export async function unreapedChild(command: string, env: NodeJS.ProcessEnv = process.env, cwd?: string): Promise<Zombie> {
  const parent = spawn('sh', ['-c', `${command} & echo "pid $!"; exec sleep 600`], { stdio: ['ignore', 'pipe', 'ignore'], env, ...(cwd && { cwd }) });
  let out = '';
  while (!/pid \d+\n/.test(out)) out += String((await once(parent.stdout, 'data'))[0]);
  const pid = Number(/pid (\d+)\n/.exec(out)![1]);
  // Until the shell has become `sleep`, it may still reap its child itself (on a loaded machine,
  // a kill sent at once found no zombie).
  for (let i = 0; i < 500 && commandOf(parent.pid!) !== 'sleep'; i++) await new Promise((r) => setTimeout(r, 10));
  if (commandOf(parent.pid!) !== 'sleep') throw new Error(`the parent shell ${parent.pid} did not become sleep`);
  return { pid, dispose: () => void parent.kill('SIGKILL') };
}

/** Kills `child` with SIGKILL and waits until it is a zombie. */
export async function killToZombie(child: Zombie): Promise<void> {
  process.kill(child.pid, 'SIGKILL');
  for (let i = 0; i < 500 && procState(child.pid) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 10));
  if (procState(child.pid) !== 'Z') throw new Error(`process ${child.pid} did not become a zombie (state ${procState(child.pid)})`);
}

/** A zombie: a `sleep` killed with SIGKILL and not reaped. */
export async function zombie(): Promise<Zombie> {
  const child = await unreapedChild('sleep 600');
  await killToZombie(child);
  return child;
}
