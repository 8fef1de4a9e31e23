/**
 * The supervisor's rules over adapters whose starts and deaths the test decides, on a manual
 * clock: backoff on failures, no retry of refused credentials, a restart after a client dies or
 * crashes, a connection attempt that hangs, and work under way during a stop.
 */
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { InFlight } from '../../../adapters/ops/inflight.js';
import { CONNECT_TIMEOUT_MS, RETRY_DELAYS_MS, STABLE_AFTER_MS, Supervisor, type PlatformStarter } from '../../../adapters/ops/supervisor.js';
import { StartError, type RunningAdapter } from '../../../adapters/adapter.js';
import { ManualClock } from './helpers/manualClock.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** An adapter the test controls: `die()` makes its `down` resolve. */
function fakeAdapter(name: string): RunningAdapter & { die(err: Error): void; stopped: boolean } {
  let die: (err: Error) => void = () => undefined;
  const adapter = {
    name,
    stopped: false,
    down: new Promise<Error>((resolve) => (die = resolve)),
    die: (err: Error) => die(err),
    async stop() {
      adapter.stopped = true;
    },
  };
  return adapter;
}

/** A starter that plays `script` one attempt at a time: an error to throw, or 'ok'. */
function scripted(name: string, script: Array<Error | 'ok' | 'hang'>): PlatformStarter & { adapters: ReturnType<typeof fakeAdapter>[]; attempts: number } {
  const starter = {
    name,
    adapters: [] as ReturnType<typeof fakeAdapter>[],
    attempts: 0,
    start(signal: AbortSignal): Promise<RunningAdapter> {
      const step = script[starter.attempts++] ?? 'ok';
      if (step instanceof Error) return Promise.reject(step);
      if (step === 'hang') return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
      const adapter = fakeAdapter(name);
      starter.adapters.push(adapter);
      return Promise.resolve(adapter);
    },
  };
  return starter;
}

function supervise(...starters: PlatformStarter[]) {
  const clock = new ManualClock();
  const logs: any[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const onAllRefused = vi.fn();
  const supervisor = new Supervisor({ log, clock, onAllRefused });
  for (const s of starters) supervisor.add(s);
  supervisor.start();
  return { supervisor, clock, logs, onAllRefused, state: (name: string) => supervisor.status()[name]?.state };
}

const unreachable = () => new StartError('unreachable', 'could not reach Slack at https://slack.com/api/ (getaddrinfo ENOTFOUND slack.com).');

describe('starting', () => {
  it('retries an unreachable platform with growing waits, then runs it', async () => {
    const slack = scripted('slack', [unreachable(), unreachable(), unreachable(), 'ok']);
    const s = supervise(slack);
    for (const [i, wait] of RETRY_DELAYS_MS.slice(0, 3).entries()) {
      await vi.waitFor(() => expect(s.supervisor.status().slack).toMatchObject({ state: 'waiting', failures: i + 1 }));
      expect(s.clock.pending).toEqual([wait]);
      s.clock.advance(wait);
    }
    await vi.waitFor(() => expect(s.state('slack')).toBe('connected'));
    expect(slack.attempts).toBe(4);
    expect(s.supervisor.adapter('slack')).toBe(slack.adapters[0]);
    expect(s.logs.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'slack: could not reach Slack at https://slack.com/api/ (getaddrinfo ENOTFOUND slack.com). Trying again in 1 s.',
      'slack: could not reach Slack at https://slack.com/api/ (getaddrinfo ENOTFOUND slack.com). Trying again in 2 s.',
      'slack: could not reach Slack at https://slack.com/api/ (getaddrinfo ENOTFOUND slack.com). Trying again in 5 s.',
    ]);
    await s.supervisor.stop();
  });

  it('never waits longer than the last delay, however long the outage', async () => {
    const slack = scripted('slack', Array.from({ length: 12 }, unreachable));
    const s = supervise(slack);
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      await vi.waitFor(() => expect(s.supervisor.status().slack).toMatchObject({ state: 'waiting', failures: i + 1 }));
      const wait = s.clock.pending[0]!;
      waits.push(wait);
      s.clock.advance(wait);
    }
    expect(waits).toEqual([1000, 2000, 5000, 10_000, 30_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000, 60_000]);
    await s.supervisor.stop();
  });

  it('reports refused credentials once and does not retry them; the other platform runs', async () => {
    const slack = scripted('slack', [new StartError('refused', 'Slack did not accept SLACK_BOT_TOKEN: invalid_auth.')]);
    const discord = scripted('discord', ['ok']);
    const s = supervise(slack, discord);
    await vi.waitFor(() => expect(s.state('slack')).toBe('refused'));
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    s.clock.advance(3_600_000);
    expect(slack.attempts).toBe(1);
    expect(s.logs.filter((l) => l.adapter === 'slack').map((l) => [l.level, l.msg])).toEqual([[50, 'slack will not start: Slack did not accept SLACK_BOT_TOKEN: invalid_auth.']]);
    expect(s.onAllRefused).not.toHaveBeenCalled();
    expect(s.supervisor.allConnected).toBe(false);
    await s.supervisor.stop();
  });

  it('gives up on nothing while one platform could still come up; says so when all refused', async () => {
    const s = supervise(scripted('slack', [new StartError('refused', 'bad bot token')]), scripted('discord', [unreachable(), new StartError('refused', 'bad discord token')]));
    await vi.waitFor(() => expect(s.state('discord')).toBe('waiting'));
    expect(s.onAllRefused).not.toHaveBeenCalled();
    s.clock.advance(1000);
    await vi.waitFor(() => expect(s.onAllRefused).toHaveBeenCalledWith({ slack: 'bad bot token', discord: 'bad discord token' }));
    await s.supervisor.stop();
  });

  it('counts an attempt with no answer within the connect timeout as unreachable', async () => {
    const discord = scripted('discord', ['hang', 'ok']);
    const s = supervise(discord);
    await vi.waitFor(() => expect(s.clock.pending).toEqual([CONNECT_TIMEOUT_MS]));
    s.clock.advance(CONNECT_TIMEOUT_MS);
    await vi.waitFor(() => expect(s.supervisor.status().discord).toMatchObject({ state: 'waiting', lastError: 'no answer within 60 s' }));
    s.clock.advance(1000);
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    await s.supervisor.stop();
  });
});

describe('a client that dies', () => {
  it('is stopped and started again after a wait, and counted as a restart', async () => {
    const discord = scripted('discord', ['ok', 'ok']);
    const s = supervise(discord);
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    discord.adapters[0]!.die(new Error('the Discord gateway closed the connection (code 4000)'));
    await vi.waitFor(() => expect(s.state('discord')).toBe('waiting'));
    expect(discord.adapters[0]!.stopped).toBe(true);
    expect(s.supervisor.adapter('discord')).toBeUndefined();
    s.clock.advance(1000);
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    expect(s.supervisor.status().discord).toMatchObject({ restarts: 1, failures: 0 });
    expect(s.supervisor.adapter('discord')).toBe(discord.adapters[1]);
    await s.supervisor.stop();
    expect(discord.adapters[1]!.stopped).toBe(true);
    expect(s.state('discord')).toBe('stopped');
  });

  it('restarts a crashing client ever more slowly, until it stays up a while', async () => {
    const discord = scripted('discord', []);
    const s = supervise(discord);
    const waits: number[] = [];
    for (let i = 0; i < 3; i++) {
      await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
      s.supervisor.crashed('discord', new TypeError("Cannot read properties of undefined (reading 'map')"));
      await vi.waitFor(() => expect(s.supervisor.status().discord).toMatchObject({ state: 'waiting', restarts: i + 1 }));
      waits.push(s.clock.pending[0]!);
      s.clock.advance(s.clock.pending[0]!);
    }
    expect(waits).toEqual([1000, 2000, 5000]);
    // A client that ran for a while before it died starts again from the shortest wait.
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    s.clock.advance(STABLE_AFTER_MS);
    s.supervisor.crashed('discord', new Error('boom'));
    await vi.waitFor(() => expect(s.state('discord')).toBe('waiting'));
    expect(s.clock.pending[0]).toBe(1000);
    expect(s.supervisor.status().discord?.restarts).toBe(4);
    await s.supervisor.stop();
  });

  it('is not trusted when it crashed while its start was finishing', async () => {
    let crashDuringStart = true;
    const adapters: ReturnType<typeof fakeAdapter>[] = [];
    const s = supervise({
      name: 'discord',
      async start() {
        await Promise.resolve();
        const adapter = fakeAdapter('discord');
        adapters.push(adapter);
        if (crashDuringStart) {
          crashDuringStart = false;
          s.supervisor.crashed('discord', new Error('thrown from a gateway handler'));
        }
        return adapter;
      },
    });
    await vi.waitFor(() => expect(s.supervisor.status().discord).toMatchObject({ state: 'waiting', lastError: 'thrown from a gateway handler' }));
    expect(adapters[0]!.stopped).toBe(true);
    s.clock.advance(1000);
    await vi.waitFor(() => expect(s.state('discord')).toBe('connected'));
    expect(s.supervisor.adapter('discord')).toBe(adapters[1]);
    await s.supervisor.stop();
  });
});

describe('work under way', () => {
  it('is waited for until it settles, work that starts meanwhile included', async () => {
    const inFlight = new InFlight();
    let finishFirst: () => void = () => undefined;
    let finishSecond: () => void = () => undefined;
    inFlight.track(new Promise<void>((resolve) => (finishFirst = resolve)));
    let idle = false;
    const waiting = inFlight.idle().then((done) => (idle = done));
    inFlight.track(new Promise<void>((_, reject) => (finishSecond = () => reject(new Error('failed, but finished')))));
    finishFirst();
    await new Promise(setImmediate);
    expect(idle).toBe(false);
    expect(inFlight.count).toBe(1);
    finishSecond();
    await waiting;
    expect(idle).toBe(true);
    expect(inFlight.count).toBe(0);
  });

  it('is given up on when the deadline passes', async () => {
    const inFlight = new InFlight();
    inFlight.track(new Promise(() => undefined));
    const deadline = new AbortController();
    const waiting = inFlight.idle(deadline.signal);
    deadline.abort();
    expect(await waiting).toBe(false);
  });
});
