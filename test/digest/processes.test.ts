/**
 * Digests from real processes sharing one DATA_DIR: `paperscout digest run-due` run as child
 * processes against the loopback fakes in this one. Two at once (two `npm start` on one
 * DATA_DIR, or overlapping cron runs) post each part once; a process killed with SIGKILL between
 * the platform taking a post and the process recording it is followed by a run that resolves the
 * part instead of posting it again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDueDigests } from '../../src/digest/runner.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { addLlmPapers, titlesOf } from '../helpers/papers.js';
import { FakeClock } from '../sources/helpers/fakeClock.js';
import { PLATFORMS, type TestPlatform } from './platforms.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const T = Date.parse('2026-03-02T09:00:00Z');
const at = (seconds: number) => new Date(T + seconds * 1000).toISOString();

let app: TestApp;
let platform: TestPlatform;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** `paperscout digest run-due --at <when>` in a child process, posting to the fake. */
function runDueProcess(when: string): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/cli/cli.ts'), 'digest', 'run-due', '--at', when], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: app.dataDir,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DISCORD_TOKEN: '',
      DISCORD_API_URL: '',
      SLACK_BOT_TOKEN: '',
      SLACK_API_URL: '',
      SLACK_APP_TOKEN: '',
      ...platform.env(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = new Promise<Exit>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err })));
  return { child, exit };
}

/** "N sent" from run-due's summary line. */
const sent = (exit: Exit) => Number(/(\d+) sent/.exec(exit.out)?.[1] ?? NaN);

async function subscribe(channel: string, count: number): Promise<void> {
  await app.digests.subscribe({
    platform: platform.name,
    workspace: 'w',
    channel,
    query: 'topic:"deep-learning/large-language-models"',
    label: 'Deep Learning · Large Language Models',
    time: '09:00',
    timezone: 'UTC',
    days: 'daily',
    count,
    fill: false,
    createdBy: 'u',
    createdAt: '2026-03-01T00:00:00.000Z',
  });
}

async function expectEachOnce(channel: string, ids: readonly string[]): Promise<void> {
  expect(platform.papersIn(channel).flat().sort()).toEqual((await titlesOf(app, ids)).sort());
}

describe.each(PLATFORMS)('run-due processes on %s', (_name, start) => {
  beforeEach(async () => {
    app = await createTestApp();
    platform = await start();
    // The fake's clock runs from the instant the processes are told it is.
    const origin = Date.now();
    platform.setNow(() => T + (Date.now() - origin));
  });
  afterEach(async () => {
    await platform.close();
    await app.dispose();
  });

  it('two at once on one DATA_DIR post each part once, and both take part', async () => {
    const channels = Array.from({ length: 12 }, (_, i) => platform.channel(100 + i));
    for (const channel of channels) await subscribe(channel, 10);
    const ids = await addLlmPapers(app, '2026-03-01T12:00:00Z', 10);
    // Answers are held until 9 posts wait at once: more than one process sends at a time (8).
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let received = 0;
    platform.fault(() => {
      if (++received >= 9) open();
      return received > 9 ? undefined : { hold: gate };
    });
    const [a, b] = [runDueProcess(at(0)), runDueProcess(at(0))];
    const ended = (exit: Exit) => `a process ended first: ${exit.code} ${exit.err}`;
    const overlapped = await Promise.race([gate.then(() => true), a.exit.then(ended), b.exit.then(ended), new Promise<string>((resolve) => setTimeout(() => resolve('no overlap within 45 s'), 45_000).unref())]);
    expect(overlapped).toBe(true);
    open();
    const [exitA, exitB] = await Promise.all([a.exit, b.exit]);
    expect(exitA.code, exitA.err).toBe(0);
    expect(exitB.code, exitB.err).toBe(0);
    expect(sent(exitA) + sent(exitB)).toBe(12);
    expect(sent(exitA)).toBeGreaterThan(0);
    expect(sent(exitB)).toBeGreaterThan(0);
    for (const channel of channels) await expectEachOnce(channel, ids);
    expect(platform.postCount()).toBe(24);
  }, 90_000);

  it('killed with SIGKILL between post and confirm: the next run finds the part and posts each paper once', async () => {
    const channel = platform.channel(200);
    await subscribe(channel, 20);
    const ids = await addLlmPapers(app, '2026-03-01T12:00:00Z', 20);
    const victim = runDueProcess(at(0));
    platform.fault((n) => {
      if (n !== 1) return undefined;
      victim.child.kill('SIGKILL'); // the platform has the message; the process never hears back
      return { hold: new Promise(() => undefined) };
    });
    const killed = await victim.exit;
    expect(killed.signal).toBe('SIGKILL');
    expect(await app.digests.run(1, at(0))).toMatchObject({ partsDone: 1, inFlight: true, leaseOwner: expect.any(String) });
    platform.fault(undefined);
    // The next run, once the dead process's lease has run out (Discord: still in its nonce window).
    const clock = new FakeClock(at(110));
    platform.setNow(() => clock.now().getTime());
    const senders = { [platform.name]: platform.sender() };
    const rerun = await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log: pino({ level: 'silent' }), clock }, new Date(at(110)));
    expect(rerun.sent).toBe(1);
    await expectEachOnce(channel, ids);
    // And the next day's digest holds only what is new.
    const more = await addLlmPapers(app, '2026-03-02T12:00:00Z', 2);
    const nextDay = new FakeClock(at(86_400));
    platform.setNow(() => nextDay.now().getTime());
    await runDueDigests({ digests: app.digests, library: app.library, states: app.states, senders, log: pino({ level: 'silent' }), clock: nextDay }, new Date(at(86_400)));
    await expectEachOnce(channel, [...ids, ...more]);
  }, 60_000);
});
