/**
 * Logging: JSON lines for machines, and human-readable on a terminal. Logs go to stderr so
 * that stdout stays clean for replies and `--json` output.
 *
 * Secrets never reach the log, whichever way they travel: fields named like credentials are
 * censored (pino `redact`), and every finished line is scrubbed of the configured secrets (every
 * setting the config schema marks secret, and the password of any URL setting: see
 * `secretValues` in config.ts), of anything shaped like a Slack token, an Authorization header,
 * a Socket Mode ticket or an interaction/webhook token in a URL (an error message, an upstream's
 * answer quoted in one, or an HTTP client's debug line can carry any of them).
 */
import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import type { Config } from './config.js';

/** pino-pretty is loaded only for a terminal: a service logging JSON starts without it. */
const loadPretty = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

export type { Logger };

/** What replaces a secret in the log. */
export const REDACTED = '[redacted]';

/** Fields whose values are censored wherever they appear (two levels deep, and in errors). */
const SECRET_KEYS = [
  'token',
  'botToken',
  'appToken',
  'signingSecret',
  'clientSecret',
  'client_secret',
  'stateSecret',
  'installationKey',
  'password',
  'authorization',
  'Authorization',
  'response_url',
  'responseUrl',
  'ticket',
];
export const REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((k) => `*.${k}`),
  ...SECRET_KEYS.map((k) => `*.*.${k}`),
  'headers.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'err.config.headers.Authorization',
  'err.original.config.headers.Authorization',
];

/** Secrets recognized by their shape, with what keeps the line readable. */
const SECRET_SHAPES: Array<[RegExp, string]> = [
  // Slack bot, user, app-level and refresh tokens.
  [/\bxox[abposer]-[A-Za-z0-9-]+/g, `xox…-${REDACTED}`],
  [/\bxapp-[A-Za-z0-9-]+/g, `xapp-${REDACTED}`],
  // Authorization headers as text (`Bot <token>`, `Bearer <token>`).
  [/\b(Bot|Bearer) [A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  // Socket Mode's WebSocket URL carries a ticket that opens the connection.
  [/([?&]ticket=)[^&\s"'\\]+/g, `$1${REDACTED}`],
  // Discord interaction callbacks and webhooks: the token in the path answers as the bot.
  [/(\/(?:interactions|webhooks)\/\d+\/)[A-Za-z0-9_.-]{16,}/g, `$1${REDACTED}`],
  // Slack response_urls and incoming webhooks post as the app.
  [/(hooks\.slack(?:-gov)?\.com\/(?:commands|actions|services|triggers)\/)[^\s"'\\]+/g, `$1${REDACTED}`],
];

/**
 * `text` with every secret it carries replaced: the `known` values (configured tokens and
 * secrets) and anything shaped like one.
 * @example scrubSecrets('GET wss://wss.slack.com/link/?ticket=abc&app_id=A1') // '…?ticket=[redacted]&app_id=A1'
 */
export function scrubSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const [shape, replacement] of SECRET_SHAPES) out = out.replace(shape, replacement);
  return out;
}

/**
 * The secrets as a finished line carries them: JSON writes a `"`, a `\` or a control character
 * in one escaped (`pa\"ss`), which the secret as given does not match. Longest first, as
 * {@link scrubSecrets} takes them.
 * @example asWritten(['pa"ss-w0rd']) // ['pa\\"ss-w0rd', 'pa"ss-w0rd']
 */
function asWritten(secrets: readonly string[]): string[] {
  const forms = new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]));
  return [...forms].sort((a, b) => b.length - a.length);
}

interface LineSink {
  write(line: string): unknown;
}

/**
 * @example const log = createLogger({ logLevel: 'info', logFormat: 'auto' });
 */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'> & Partial<Pick<Config, 'secrets'>>,
  stream: NodeJS.WritableStream & { isTTY?: boolean } = process.stderr,
): Logger {
  const usePretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && stream.isTTY === true);
  const options = { level: config.logLevel, base: { app: 'paperscout' }, redact: { paths: REDACT_PATHS, censor: REDACTED } };
  const known = asWritten(config.secrets ?? []);
  const sink: LineSink = usePretty
    ? loadPretty()({ destination: stream, colorize: stream.isTTY === true, sync: true, ignore: 'pid,hostname,app' })
    : stream === process.stderr
      ? pino.destination({ fd: 2, sync: true })
      : stream;
  return pino(options, { write: (line: string) => sink.write(scrubSecrets(line, known)) });
}
