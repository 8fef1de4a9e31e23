/**
 * Signals and escaped errors, on stand-in process objects: which signal is a second one, and
 * which adapter an error thrown inside a platform SDK belongs to.
 */
import { EventEmitter } from 'node:events';
import { Client, GatewayIntentBits } from 'discord.js';
import { webApi } from '@slack/bolt';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { attributeError, containAdapterFailures } from '../../../adapters/ops/containment.js';
import { DUPLICATE_SIGNAL_MS, onShutdownSignals } from '../../../adapters/ops/signals.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

function signals() {
  const target = new EventEmitter();
  let now = 0;
  const calls: string[] = [];
  const off = onShutdownSignals(
    {
      graceful: (signal) => calls.push(`graceful ${signal}`),
      repeated: (signal) => calls.push(`repeated ${signal}`),
      immediate: (signal, code) => calls.push(`immediate ${signal} ${code}`),
    },
    target as unknown as NodeJS.Process,
    () => now,
  );
  return { calls, off, send: (signal: string, at: number) => ((now = at), target.emit(signal)) };
}

describe('shutdown signals', () => {
  it('stops gracefully on the first, at once on a second a while later', () => {
    const s = signals();
    s.send('SIGTERM', 0);
    s.send('SIGTERM', 5000);
    expect(s.calls).toEqual(['graceful SIGTERM', 'immediate SIGTERM 143']);
  });

  it.each([
    ['the SIGINT npm relays right after the terminal’s, for one Ctrl-C', 'SIGINT', 'SIGINT'],
    ['the SIGTERM npm relays right after the one sent to the process group (systemctl stop, kill -TERM -pgid)', 'SIGTERM', 'SIGTERM'],
    ['a SIGTERM right after a SIGINT', 'SIGINT', 'SIGTERM'],
  ])('takes %s for the same request', (_, first, second) => {
    const s = signals();
    s.send(first, 0);
    s.send(second, 3);
    s.send(second, DUPLICATE_SIGNAL_MS - 1); // a relay held up by a busy event loop
    expect(s.calls).toEqual([`graceful ${first}`, `repeated ${second}`, `repeated ${second}`]);
    s.send(second, DUPLICATE_SIGNAL_MS + 1); // asked again
    expect(s.calls.at(-1)).toBe(`immediate ${second} ${second === 'SIGINT' ? 130 : 143}`);
  });

  it('can be removed', () => {
    const s = signals();
    s.off();
    s.send('SIGTERM', 0);
    expect(s.calls).toEqual([]);
  });
});

/** An error thrown by discord.js itself, as a malformed gateway packet makes it throw. */
function discordJsError(): Error {
  const client = new Client({ intents: [GatewayIntentBits.Guilds] });
  try {
    (client as any).actions.ChannelCreate.handle(null);
  } catch (err) {
    return err as Error;
  } finally {
    void client.destroy();
  }
  throw new Error('discord.js did not throw');
}

describe('errors that escape a platform client', () => {
  it('are attributed to the adapter whose SDK threw them', async () => {
    expect(attributeError(discordJsError())).toBe('discord');
    const slackError = await new webApi.WebClient('xoxb-1', { slackApiUrl: 'http://127.0.0.1:9/api/', retryConfig: { retries: 0 } }).auth.test().catch((err: unknown) => err);
    expect(attributeError(slackError)).toBe('slack');
    expect(attributeError(new Error('ours'))).toBeUndefined();
    expect(attributeError('a string')).toBeUndefined();
  });

  it('restart that adapter and keep the process; anything else ends it', () => {
    const target = new EventEmitter();
    const onAdapterCrash = vi.fn();
    const onUnknown = vi.fn();
    const lines: any[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const off = containAdapterFailures({ log, onAdapterCrash, onUnknown }, target as unknown as NodeJS.Process);
    const crash = discordJsError();
    target.emit('unhandledRejection', crash);
    expect(onAdapterCrash).toHaveBeenCalledWith('discord', crash);
    expect(lines[0]).toMatchObject({ level: 50, adapter: 'discord', origin: 'unhandledRejection', msg: 'the discord adapter failed; restarting it while the rest keeps running' });
    expect(onUnknown).not.toHaveBeenCalled();

    target.emit('uncaughtException', new Error('a bug of ours'));
    expect(onUnknown).toHaveBeenCalledTimes(1);
    expect(lines[1]).toMatchObject({ level: 60, origin: 'uncaughtException' });
    off();
    expect(target.listenerCount('uncaughtException') + target.listenerCount('unhandledRejection')).toBe(0);
  });
});
