/**
 * runOncePerSlot on the real SQLite job leases: one run per slot, a slot handed back when
 * aborted, and a lease whose holder on this machine is gone taken over at once instead of after
 * its time (a backfill killed with -9 and run again).
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { deadOwnerHere } from '../../src/processes.js';
import { runOncePerSlot } from '../../src/sources/jobs.js';
import { silentLog } from '../helpers/corpus.js';
import { memoryStores } from '../helpers/stores.js';
import { zombie } from '../helpers/zombie.js';
import { FakeClock } from './helpers/fakeClock.js';

/** The pid of a process that has exited. */
function goneProcessPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('deadOwnerHere', () => {
  it('is true only for an owner of this machine whose pid is gone', () => {
    expect(deadOwnerHere(`${hostname()}:${goneProcessPid()}:ab12cd34`)).toBe(true);
    expect(deadOwnerHere(`${hostname()}:${process.pid}:ab12cd34`)).toBe(false); // this process
    expect(deadOwnerHere(`${hostname()}:${process.ppid}:ab12cd34`)).toBe(false); // alive
    expect(deadOwnerHere(`another-host.example:${goneProcessPid()}:ab12cd34`)).toBe(false); // cannot tell
    expect(deadOwnerHere('not an owner')).toBe(false);
  });

  it('takes a holder killed with SIGKILL and not yet reaped (a zombie) for gone', async () => {
    const killed = await zombie();
    try {
      expect(deadOwnerHere(`${hostname()}:${killed.pid}:ab12cd34`)).toBe(true);
    } finally {
      killed.dispose();
    }
  });
});

describe('runOncePerSlot', () => {
  it('runs a slot once, hands an aborted one back, and takes over from a holder here that is gone', async () => {
    const { jobs } = memoryStores();
    const clock = new FakeClock('2026-03-02T02:30:00Z');
    const deps = { clock, log: silentLog };
    const once = { jobs, job: 'backfill' };
    let runs = 0;
    const work = async () => void runs++;

    expect(await runOncePerSlot(once, '2026-03-02', { ...deps, owner: 'a' }, work)).toBe(true);
    expect(await runOncePerSlot(once, '2026-03-02', { ...deps, owner: 'b' }, work)).toBe(false); // done
    const stop = new AbortController();
    stop.abort();
    expect(await runOncePerSlot(once, '2026-03-03', { ...deps, owner: 'a' }, work, stop.signal)).toBe(true);
    expect(await jobs.lastDone('backfill')).toBe('2026-03-02'); // handed back, not done

    // A process of this machine claimed the slot and died (kill -9): its lease is still live.
    const dead = `${hostname()}:${goneProcessPid()}:ab12cd34`;
    expect(await jobs.claim('backfill', '2026-03-03', { owner: dead, now: clock.now(), ttlMs: 300_000 })).toBe(true);
    expect(await jobs.holder('backfill', clock.now())).toEqual({ owner: dead, until: '2026-03-02T02:35:00.000Z' });
    expect(await runOncePerSlot(once, '2026-03-03', deps, work)).toBe(true);
    expect(runs).toBe(3);
    // One on another machine is waited out.
    expect(await jobs.claim('backfill', '2026-03-04', { owner: 'elsewhere.example:1:ab12cd34', now: clock.now(), ttlMs: 300_000 })).toBe(true);
    expect(await runOncePerSlot(once, '2026-03-04', deps, work)).toBe(false);
    clock.advance(300_000);
    expect(await runOncePerSlot(once, '2026-03-04', deps, work)).toBe(true);
    expect(runs).toBe(4);
  });
});
