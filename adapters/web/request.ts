/**
 * What the site reads from a request before it routes it: the reader's language (`?lang=`, else
 * Accept-Language), the query cut to {@link MAX_QUERY_BYTES}, a page number, and the Host header
 * when it has a host's shape. Pure functions of the request's parts.
 */
import { isIP } from 'node:net';
import { DEFAULT_LOCALE, LOCALES, acceptedLocale, type Locale } from '../../src/i18n/index.js';

/** Longest query read, in UTF-8 bytes; a longer one is cut (at a character's end) with a note. */
export const MAX_QUERY_BYTES = 1024;

/**
 * The language of the page: `?lang=` when it names one the site has, else the first language of
 * Accept-Language (by q-value) that it has, else English.
 * @example pickLocale('fr;q=0.9, zh-TW;q=0.8, en;q=0.5', null) // 'zh-CN'
 */
export function pickLocale(acceptLanguage: string | undefined, lang: string | null): { locale: Locale; chosen: boolean } {
  const override = lang ? acceptedLocale(lang) : undefined;
  if (override) return { locale: override, chosen: true };
  return { locale: acceptedLocale(acceptLanguage) ?? DEFAULT_LOCALE, chosen: false };
}

/** The locales the site offers, for its language switch. */
export const SITE_LOCALES: readonly Locale[] = LOCALES;

/**
 * A query as typed, trimmed and cut to {@link MAX_QUERY_BYTES} (never inside a character).
 * @example readQuery('a'.repeat(2000)).cut // true
 */
export function readQuery(raw: string | null): { query: string; cut: boolean } {
  const query = (raw ?? '').trim();
  if (Buffer.byteLength(query, 'utf8') <= MAX_QUERY_BYTES) return { query, cut: false };
  let bytes = 0;
  let end = 0;
  for (const char of query) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > MAX_QUERY_BYTES) break;
    bytes += size;
    end += char.length;
  }
  return { query: query.slice(0, end).trim(), cut: true };
}

/**
 * A 1-based page number from `?page=`: 1 when absent or not a whole number, at most `max`.
 * @example pageNumber('3', 10) // 3
 */
export function pageNumber(raw: string | null, max: number): number {
  const n = Number(raw ?? '1');
  return Number.isSafeInteger(n) ? Math.min(Math.max(1, n), Math.max(1, max)) : 1;
}

/** Longest host name (RFC 1035), and a port after it. */
const MAX_HOST_LENGTH = 253 + ':65535'.length;
/** A DNS label: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST_SHAPE = new RegExp(`^(?:(${LABEL}(?:\\.${LABEL})*)|\\[([0-9A-Fa-f:.]+)\\])(?::(\\d{1,5}))?$`);

/**
 * The Host header when it is a host name, an IPv4 address or a bracketed IPv6 address, with an
 * optional port from 1 to 65535; else undefined. Only such a value is ever written into an answer.
 * @example readHost('papers.lab.example:8080') // 'papers.lab.example:8080'
 * @example readHost('evil.example/"><script>') // undefined
 */
export function readHost(header: string | undefined): string | undefined {
  if (header === undefined || header.length > MAX_HOST_LENGTH) return undefined;
  const shape = HOST_SHAPE.exec(header);
  if (!shape) return undefined;
  const [, name, ipv6, port] = shape;
  if (name !== undefined && name.length > 253) return undefined;
  if (ipv6 !== undefined && isIP(ipv6) !== 6) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return header;
}
