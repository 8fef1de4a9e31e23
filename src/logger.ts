/**
 * Logging: pino, JSON lines by default and human-readable on a terminal. Logs go to stderr so
 * that stdout stays clean for replies and `--json` output.
 */
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

export type { Logger };

/**
 * @example const log = createLogger({ logLevel: 'info', logFormat: 'auto' });
 */
export function createLogger(config: Pick<Config, 'logLevel' | 'logFormat'>, stream: NodeJS.WriteStream = process.stderr): Logger {
  const usePretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && stream.isTTY === true);
  const options = { level: config.logLevel, base: { app: 'paperscout' } };
  if (usePretty) {
    return pino(options, pretty({ destination: stream, colorize: stream.isTTY === true, sync: true, ignore: 'pid,hostname,app' }));
  }
  return pino(options, stream === process.stderr ? pino.destination({ fd: 2, sync: true }) : stream);
}
