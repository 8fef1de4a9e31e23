/**
 * Log lines that strangers can cause (a malformed request line, a request with a bad signature)
 * must not let them fill the log: such an event is logged at most once per interval, and the
 * next line says how many were left out meanwhile. Whatever the sender chose goes in only
 * through {@link loggable}: cut short and with every unprintable character escaped.
 */
import type { Logger } from 'pino';

/** At most one line per this many milliseconds for each throttled event. */
export const LOG_INTERVAL_MS = 60_000;
/** The most characters of a sender's text that a log line quotes. */
export const LOGGED_TEXT_MAX = 80;

export interface ThrottledLog {
  /** Logs `fields` with the message, or counts the event when a line was written less than an interval ago. */
  (fields?: Record<string, unknown>): void;
}

/**
 * @example
 * const badLine = throttledLog(log, 'warn', 'a request line that cannot be read was refused');
 * badLine({ url: loggable(req.url) }); // logged; the same within a minute is only counted
 */
export function throttledLog(log: Logger, level: 'error' | 'warn' | 'info', msg: string, options: { intervalMs?: number; now?: () => number } = {}): ThrottledLog {
  const intervalMs = options.intervalMs ?? LOG_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let last: number | undefined;
  let suppressed = 0;
  return (fields = {}) => {
    const at = now();
    if (last !== undefined && at - last < intervalMs) {
      suppressed++;
      return;
    }
    log[level]({ ...fields, ...(suppressed > 0 && { suppressed }) }, msg);
    last = at;
    suppressed = 0;
  };
}

/**
 * A sender's text as a log line may quote it: at most {@link LOGGED_TEXT_MAX} characters (then
 * `…`), anything outside printable ASCII written as a `\u` escape.
 * @example loggable('http://a:99999/\u001b[31m') // 'http://a:99999/\\u001b[31m'
 */
export function loggable(text: string | undefined): string {
  if (text === undefined) return '';
  const escaped = text.slice(0, LOGGED_TEXT_MAX).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text.length > LOGGED_TEXT_MAX ? `${escaped}…` : escaped;
}
