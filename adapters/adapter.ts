/**
 * What a platform adapter gives the process that started it: a name for the logs, a sender for
 * digests, a way to stop, and (for a supervisor) how its connection is doing. A start that fails
 * says why with a {@link StartError}: the platform could not be reached (try again later) or it
 * refused the credentials (trying again cannot help).
 */
import { causeChain } from '../src/causes.js';
import type { DigestSender } from '../src/digest/sender.js';

/** How a connected client is doing, by its own account. */
export type ConnectionState = 'connected' | 'reconnecting';

export interface RunningAdapter {
  name: string;
  /** Posts digests to the platform's channels. */
  sender?: DigestSender;
  /**
   * Resolves when the client has died and will not come back by itself (the gateway closed for
   * good, the socket gave up): whoever started it may start it again. Never rejects.
   */
  down?: Promise<Error>;
  /** The client reconnecting by itself after a drop, or connected. */
  state?(): ConnectionState;
  /** Stops taking new requests (closes the listener or the gateway); work under way carries on. */
  stopAccepting?(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Why a platform adapter could not start.
 * - `unreachable`: the network failed (DNS, refused, timeout, 5xx): it may work later.
 * - `refused`: the platform refused the credentials or the configuration: it will not work until
 *   someone changes them.
 * - `failed`: anything else; worth another try.
 */
export type StartFailure = 'unreachable' | 'refused' | 'failed';

export class StartError extends Error {
  override readonly name = 'StartError';
  constructor(
    readonly failure: StartFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Error codes (anywhere in an error's cause chain) that mean the network failed, not the platform. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'ECONNABORTED',
]);

/**
 * Whether `err` (or any error it was caused by) is a network failure: DNS, a refused or reset
 * connection, a timeout, or an HTTP 5xx answer.
 * @example isNetworkFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) // true
 */
export function isNetworkFailure(err: unknown): boolean {
  return causeChain(err).some((e) => {
    if (typeof e !== 'object') return false;
    const { code, name, status, statusCode } = e as Record<string, unknown>;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (name === 'AbortError' || name === 'TimeoutError' || name === 'ConnectTimeoutError') return true;
    const httpStatus = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
    return httpStatus !== undefined && httpStatus >= 500;
  });
}

/** The message of `err` and of the errors it was caused by, for a one-line report. */
export function describeCause(err: unknown): string {
  const parts: string[] = [];
  for (const e of causeChain(err)) {
    if (parts.length === 4) break;
    if (typeof e !== 'object') {
      parts.push(String(e));
      break;
    }
    const { message, code } = e as Record<string, unknown>;
    const text = typeof message === 'string' && message !== '' ? message.replace(/\.$/, '') : typeof code === 'string' ? code : '';
    if (text && !parts.some((p) => p.includes(text))) parts.push(text);
  }
  return parts.join(': ') || 'unknown error';
}
