/**
 * What an error was caused by. A failed request surfaces its socket's error some way down a
 * chain: as the `cause` of fetch's "fetch failed" TypeError (undici), as the `original` of
 * Slack's WebAPIRequestError, among the `errors` of an AggregateError (a host whose every
 * address refused). Whatever needs the root of a failure (its network codes, its innermost
 * message, a one-line account) walks the chain here, so that every caller sees the same links.
 */

/** Links followed at most: a chain longer than this is cut, and a loop ends here too. */
const MAX_CHAIN = 8;

/**
 * `err` and the errors it was caused by, outermost first: each one's `cause`, else its
 * `original` (Slack). Each error once; the chain ends at a value that is not an object.
 * @example causeChain(new TypeError('fetch failed', { cause: econnrefused })) // [TypeError, econnrefused]
 */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = err; e && chain.length < MAX_CHAIN && !chain.includes(e); ) {
    chain.push(e);
    if (typeof e !== 'object') break;
    const { cause, original } = e as { cause?: unknown; original?: unknown };
    e = cause ?? original;
  }
  return chain;
}

/**
 * The error codes along `err`'s chain, outermost first, with those of the errors an
 * AggregateError gathers.
 * @example errorCodes(new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })) // ['ECONNREFUSED']
 */
export function errorCodes(err: unknown, depth = 0): string[] {
  if (depth > 2) return [];
  return causeChain(err).flatMap((e) => {
    if (typeof e !== 'object') return [];
    const { code, errors } = e as { code?: unknown; errors?: unknown };
    const own = typeof code === 'string' ? [code] : [];
    return Array.isArray(errors) ? [...own, ...errors.flatMap((member) => errorCodes(member, depth + 1))] : own;
  });
}

/**
 * The message of the error that started it all (the last of the chain).
 * @example innermostMessage(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:443') })) // 'connect ECONNREFUSED 127.0.0.1:443'
 */
export function innermostMessage(err: unknown): string {
  const last = causeChain(err).at(-1) as { message?: unknown } | undefined;
  return typeof last?.message === 'string' ? last.message : String(err);
}

/** The user-info of a URL (`https://user:password@`), up to the last `@` before its path. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi;

/**
 * A failed fetch's cause in a few words: `ECONNREFUSED`, `timed out`, … Replies quote it, so a
 * URL in it loses its user name and password (fetch refuses a URL with them, and says so with
 * the whole URL).
 * @example networkReason(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })) // 'fetch failed (ECONNRESET)'
 */
export function networkReason(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return 'timed out';
    const code = (error.cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
    const message = error.message.replace(URL_CREDENTIALS, '$1');
    return typeof code === 'string' ? `${message} (${code})` : message;
  }
  return String(error).replace(URL_CREDENTIALS, '$1');
}
