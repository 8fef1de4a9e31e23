/**
 * What a request that got no answer means for a digest post. Both platform clients run on
 * undici (discord.js REST calls undici's `request`, Slack's WebClient the global `fetch`) and
 * surface the socket's own error: as the thrown error (discord.js) or as the `cause` of a
 * "fetch failed" TypeError wrapped in Slack's WebAPIRequestError (`original`). A failure to
 * connect (refused, no such host, a TLS handshake that failed, a connect timeout) happens before
 * a byte of the request is written: the message was certainly not posted. Anything after that (a
 * timeout waiting for the answer, a connection reset or closed) may have come after the platform
 * stored the message: its outcome is unknown.
 */
import { errorCodes, innermostMessage } from '../causes.js';
import { DeliveryError } from './sender.js';

/** Error codes raised while connecting, before any of the request is written. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
]);
/** TLS alerts during the handshake (OpenSSL's `…_ALERT_…` codes). */
const HANDSHAKE_ALERT = /^ERR_SSL_(SSLV3|TLSV1)_ALERT_/;

/**
 * Whether a request failed while connecting, so that nothing of it reached the platform.
 * @example failedToConnect(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:443'), { code: 'ECONNREFUSED' })) // true
 */
export function failedToConnect(err: unknown): boolean {
  return errorCodes(err).some((code) => CONNECT_CODES.has(code) || HANDSHAKE_ALERT.test(code));
}

/**
 * A request error as a {@link DeliveryError}: `transient` (not posted) when it failed while
 * connecting, else `unknown`.
 * @example requestFailure(err, 'Discord') // DeliveryError('transient', 'Discord unreachable: connect ECONNREFUSED …')
 */
export function requestFailure(err: unknown, platform: string): DeliveryError {
  const detail = errorCodes(err).find((code) => CONNECT_CODES.has(code) || HANDSHAKE_ALERT.test(code));
  if (detail) return new DeliveryError('transient', `${platform} unreachable (${detail}): ${innermostMessage(err)}`, { cause: err });
  return new DeliveryError('unknown', `${platform} did not answer: ${innermostMessage(err)}`, { cause: err });
}
