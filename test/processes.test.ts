/**
 * processAlive, the one "does this process still run" check, against real processes: this one,
 * its parent, one that exited and was reaped, and a zombie (killed with SIGKILL, not reaped).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { processAlive } from '../src/processes.js';
import { zombie } from './helpers/zombie.js';

describe('processAlive', () => {
  it('is true for a running process and false for one that exited', () => {
    expect(processAlive(process.pid)).toBe(true);
    expect(processAlive(process.ppid)).toBe(true);
    const gone = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    expect(processAlive(gone)).toBe(false);
  });

  it('is false for a zombie, which signal 0 still reaches', async () => {
    const dead = await zombie();
    try {
      expect(() => process.kill(dead.pid, 0)).not.toThrow(); // what the check used to go by
      expect(processAlive(dead.pid)).toBe(false);
    } finally {
      dead.dispose();
    }
  });

  it('is false for what is not a pid', () => {
    for (const pid of [0, -1, 1.5, Number.NaN]) expect(processAlive(pid)).toBe(false);
  });
});
