/**
 * What stands between the network and Bolt on /slack/events (commands, interactivity and events
 * alike): the body is read (at most {@link MAX_BODY_BYTES}), its signature and age checked as
 * Slack asks, and its shape checked, before Bolt sees it; Bolt's own signature check is off, so
 * this is the one rule, on an injected clock.
 *
 * - Signature: `X-Slack-Signature` is `v0=` + HMAC-SHA256(signing secret, `v0:<timestamp>:<raw
 *   body>`), compared in constant time.
 * - Age: `X-Slack-Request-Timestamp` is whole Unix seconds (digits only) at most
 *   {@link MAX_SKEW_SECONDS} from now, either side: a stamp in the future is no fresher than
 *   one in the past.
 * - Shape: what Bolt parses must be an object it can read without throwing (a signed `null`
 *   made it throw where nothing could catch it): JSON must be an object with a string `type`; a
 *   form must hold one string per field, and either a `payload` that is such a JSON object or a
 *   slash command's `command`. Where Bolt reads inside the object without a check, that part
 *   must be there as Slack sends it ({@link payloadProblem}): a click's `actions` (an empty
 *   list went unacknowledged for 3 s and answered 404; `null` threw), a view's `view`, an event's
 *   `event` (and its `user`, `channel`, `item`), an interaction's `user` and `channel`, the
 *   `authorizations` it takes the workspace from.
 * Unsigned or stale requests get 401, malformed ones 400, oversized ones 413, each logged at
 * most once a minute with a count. `ssl_check=1` gets 200 unsigned, as Bolt answered it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import { throttledLog } from '../../src/logThrottle.js';

/** Slack: "reject the request if the timestamp is more than five minutes from local time". */
export const MAX_SKEW_SECONDS = 5 * 60;
/** The largest body read (Bolt's own limit); Slack's payloads are far smaller. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const FORM = 'application/x-www-form-urlencoded';

/** A request whose body was read here, as Bolt's HTTP receiver takes it (it reads `rawBody` instead of the stream). */
export type BufferedRequest = IncomingMessage & { rawBody: Buffer };

/**
 * Why a request's signature or stamp is refused, or undefined when it is Slack's.
 * @example signatureProblem({ secret, timestamp: '1760000000', signature: 'v0=…', body, nowMs: 1760000000_000 }) // undefined
 */
export function signatureProblem(input: { secret: string; timestamp: unknown; signature: unknown; body: Buffer; nowMs: number }): string | undefined {
  const { secret, timestamp, signature, body, nowMs } = input;
  if (secret === '') return 'no signing secret is configured';
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return 'X-Slack-Request-Timestamp or X-Slack-Signature is missing';
  if (!/^\d{1,12}$/.test(timestamp)) return 'X-Slack-Request-Timestamp is not whole seconds';
  const skew = Number(timestamp) - nowMs / 1000;
  if (skew < -MAX_SKEW_SECONDS) return 'the request is more than five minutes old';
  if (skew > MAX_SKEW_SECONDS) return 'the request is stamped more than five minutes ahead';
  if (!/^v0=[0-9a-f]{64}$/.test(signature)) return 'X-Slack-Signature is not a v0 signature';
  const expected = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature.slice(3), 'hex')) ? undefined : 'the signature does not match';
}

/**
 * What a body is, parsed as Bolt parses it: Slack's SSL check, a request Bolt can read, or
 * refused with why.
 * @example readSlackBody(Buffer.from('null'), 'application/json') // { kind: 'refused', reason: 'the JSON body is not an object with a type' }
 */
export function readSlackBody(raw: Buffer, contentType: string | undefined): { kind: 'ssl-check' } | { kind: 'request' } | { kind: 'refused'; reason: string } {
  const text = raw.toString('utf8');
  if (contentType !== FORM) return readable(parseJson(text), 'the JSON body is not an object with a type');
  const form = parseQuery(text);
  if (form.ssl_check === '1') return { kind: 'ssl-check' };
  if (Object.values(form).some((v) => typeof v !== 'string')) return { kind: 'refused', reason: 'a form field is given more than once' };
  if ('payload' in form) return readable(parseJson(form.payload as string), 'the payload is not a JSON object with a type');
  return typeof form.command === 'string' && form.command !== '' ? { kind: 'request' } : { kind: 'refused', reason: 'the form is neither a slash command nor an interaction payload' };
}

export interface GuardOptions {
  signingSecret: string;
  /** Milliseconds now (the service's clock). */
  now: () => number;
  log: Logger;
  /** Bolt's listener, given the request with its body read. */
  pass: (req: BufferedRequest, res: ServerResponse) => void;
}

/**
 * The handler for POST /slack/events: reads, verifies and checks the request, then passes it on.
 * @example listener.mount([EVENTS_PATH], guardSlackRequests({ signingSecret, now: Date.now, log, pass: receiver.requestListener }))
 */
export function guardSlackRequests(options: GuardOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const { log, now } = options;
  const throttle = { now };
  const unsigned = throttledLog(log, 'warn', 'Slack: refused a request that is not signed as Slack signs them (401)', throttle);
  const malformed = throttledLog(log, 'warn', 'Slack: refused a signed request whose body cannot be read (400)', throttle);
  const oversized = throttledLog(log, 'warn', `Slack: refused a request larger than ${MAX_BODY_BYTES} bytes (413)`, throttle);
  const empty = (res: ServerResponse, status: number): void => void res.writeHead(status, { 'content-length': '0' }).end();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === undefined) {
      oversized();
      res.writeHead(413, { 'content-length': '0', connection: 'close' }).end();
      return;
    }
    const contentType = req.headers['content-type'];
    const shape = readSlackBody(body, contentType);
    if (shape.kind === 'ssl-check') return empty(res, 200);
    const problem = signatureProblem({
      secret: options.signingSecret,
      timestamp: req.headers['x-slack-request-timestamp'],
      signature: req.headers['x-slack-signature'],
      body,
      nowMs: now(),
    });
    if (problem) {
      unsigned({ reason: problem });
      return empty(res, 401);
    }
    if (shape.kind === 'refused') {
      malformed({ reason: shape.reason });
      return empty(res, 400);
    }
    options.pass(Object.assign(req, { rawBody: body }), res);
  };
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      // The sender went away mid-body, or Bolt's listener threw at once.
      log.warn({ err }, 'Slack: a request could not be handled');
      if (res.headersSent) res.destroy();
      else empty(res, 500);
    });
  };
}

/** The whole body, or undefined once it passes `limit` bytes (the rest is not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) return resolve(undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => {
      ended = true;
      resolve(Buffer.concat(chunks));
    });
    req.once('error', reject);
    req.once('close', () => {
      if (!ended) reject(new Error('the request closed before its body ended'));
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readable(value: unknown, notTyped: string): { kind: 'request' } | { kind: 'refused'; reason: string } {
  if (!typedObject(value)) return { kind: 'refused', reason: notTyped };
  const problem = payloadProblem(value);
  return problem === undefined ? { kind: 'request' } : { kind: 'refused', reason: problem };
}

/** Interactions Bolt knows by their type alone (others by their `actions` or `name`). */
const INTERACTION_TYPES: ReadonlySet<string> = new Set(['block_suggestion', 'dialog_submission', 'shortcut', 'message_action', 'view_submission', 'view_closed']);

/**
 * What Bolt would read inside a typed body without a check and find missing, or undefined: the
 * parts Slack always sends for that type, as objects where Bolt reads their fields (its
 * `getTypeAndConversation` and `buildSource`).
 * @example payloadProblem({ type: 'block_actions', actions: [] }) // 'a block_actions payload without actions'
 * @example payloadProblem({ type: 'block_actions', actions: [{ action_id: 'a' }], user: { id: 'U1' } }) // undefined
 */
export function payloadProblem(body: Record<string, unknown>): string | undefined {
  const type = body.type as string;
  const present = (key: string) => Object.hasOwn(body, key) && body[key] !== undefined;
  // (An action that is no object is Slack's never, but Bolt reads it without throwing, and the
  // registry answers it as a button that does nothing here.)
  if ((type === 'block_actions' || type === 'interactive_message') && !(Array.isArray(body.actions) && body.actions.length > 0 && body.actions.every((a) => a !== null && a !== undefined))) {
    return `a ${type} payload without actions`;
  }
  if ((type === 'view_submission' || type === 'view_closed') && !isObject(body.view)) return `a ${type} payload without a view`;
  if (type === 'event_callback' && !typedObject(body.event)) return 'an event_callback without an event';
  if (present('event')) {
    const problem = isObject(body.event) ? eventProblem(body.event) : 'an event that is not an object';
    if (problem) return problem;
  }
  if (present('authorizations') && !(Array.isArray(body.authorizations) && body.authorizations.every(isObject))) return 'authorizations that are not a list of objects';
  // Bolt reads `channel.id` wherever a channel is given, and every interaction's `user.id` (the
  // workspace from `team.id`, else from `user.team_id`).
  if (present('channel') && !isObject(body.channel)) return 'a channel that is not an object';
  if (present('user') && !isObject(body.user)) return 'a user that is not an object';
  const interaction = !present('command') && (present('actions') || present('name') || INTERACTION_TYPES.has(type));
  if (interaction && !isObject(body.user)) return 'an interaction without its user';
  return undefined;
}

/** What Bolt reads of an event without a check: its `item`, its `user` and `channel` (text or an object), its `subteam`. */
function eventProblem(event: Record<string, unknown>): string | undefined {
  const has = (key: string) => Object.hasOwn(event, key);
  if (has('item') && !isObject(event.item)) return 'an event whose item is not an object';
  for (const key of ['user', 'channel']) {
    if (has(key) && typeof event[key] !== 'string' && !isObject(event[key])) return `an event whose ${key} is neither text nor an object`;
  }
  if (has('subteam') && !isObject(event.subteam)) return 'an event whose subteam is not an object';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typedObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'type') && typeof (value as { type: unknown }).type === 'string';
}
