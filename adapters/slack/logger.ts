/**
 * Bolt's logger interface over the app's pino logger, so that Bolt and its Web API client log
 * through pino (JSON lines, LOG_LEVEL) instead of printing to the console. Bolt's `info` is
 * start-up chatter and goes to pino's debug; its warnings and errors stay what they are (requests
 * refused before Bolt sees them are logged by verify.ts). Text is scrubbed of tokens and Socket
 * Mode ticket URLs before it is logged (Bolt and the Socket Mode client put URLs and request
 * details in their messages).
 */
import { inspect } from 'node:util';
import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from 'pino';
import { scrubSecrets } from '../../src/logger.js';

/**
 * @example new App({ logger: boltLogger(log.child({ adapter: 'slack' })), … })
 */
export function boltLogger(log: Logger): BoltLogger {
  let name = 'bolt';
  const emit = (level: 'debug' | 'warn' | 'error', msg: unknown[]) => {
    if (!log.isLevelEnabled(level)) return;
    const err = msg.find((m): m is Error => m instanceof Error);
    const text = scrubSecrets(msg.map((m) => (typeof m === 'string' ? m : inspect(m, { depth: 3, breakLength: Infinity }))).join(' '));
    log[level]({ source: name, ...(err && { err }) }, text);
  };
  return {
    debug: (...msg: unknown[]) => emit('debug', msg),
    info: (...msg: unknown[]) => emit('debug', msg),
    warn: (...msg: unknown[]) => emit('warn', msg),
    error: (...msg: unknown[]) => emit('error', msg),
    // pino's level (LOG_LEVEL) decides; Bolt's own default must not override it.
    setLevel: () => undefined,
    getLevel: () => (log.isLevelEnabled('debug') ? LogLevel.DEBUG : log.isLevelEnabled('info') ? LogLevel.INFO : log.isLevelEnabled('warn') ? LogLevel.WARN : LogLevel.ERROR),
    setName: (value: string) => {
      name = value;
    },
  };
}
