/**
 * Log lines strangers can cause: one an interval, the next with the count left out, and a
 * sender's text quoted short and escaped.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { LOGGED_TEXT_MAX, LOG_INTERVAL_MS, loggable, throttledLog } from '../src/logThrottle.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('throttledLog', () => {
  it('writes the first line, counts the rest of the interval, and says how many were left out', () => {
    const lines: any[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let now = 0;
    const refused = throttledLog(log, 'warn', 'refused', { now: () => now });
    for (let i = 0; i < 1000; i++) refused({ n: i });
    now += LOG_INTERVAL_MS - 1;
    refused({ n: 1000 });
    expect(lines.map((l) => [l.level, l.msg, l.n, l.suppressed])).toEqual([[40, 'refused', 0, undefined]]);
    now += 1;
    refused({ n: 1001 });
    now += LOG_INTERVAL_MS;
    refused({ n: 1002 });
    expect(lines.map((l) => [l.n, l.suppressed])).toEqual([
      [0, undefined],
      [1001, 1000],
      [1002, undefined],
    ]);
  });
});

describe('loggable', () => {
  it.each([
    ['http://a:99999/', 'http://a:99999/'],
    ['a\u001b[31mred\r\nInjected: yes', 'a\\u001b[31mred\\u000d\\u000aInjected: yes'],
    ['中', '\\u4e2d'],
    ['x'.repeat(LOGGED_TEXT_MAX + 1), `${'x'.repeat(LOGGED_TEXT_MAX)}…`],
    [undefined, ''],
  ])('%j → %j', (text, logged) => expect(loggable(text)).toBe(logged));

  it('never quotes more than the limit, whatever it is given', () => {
    expect(loggable('\u0000'.repeat(10_000)).length).toBe(LOGGED_TEXT_MAX * 6 + 1);
  });
});
