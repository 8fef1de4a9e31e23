/**
 * HTTP/1.1 over a raw socket, for request lines no HTTP client would send (`GET
 * http://a:99999/ HTTP/1.1`): the line goes out byte for byte, the answer is read until the
 * server closes the connection.
 */
import { connect } from 'node:net';

/** Request lines whose absolute address cannot be read as a URL (the port, the host, the brackets). */
export const MALFORMED_LINES = ['GET http://a:99999/ HTTP/1.1', 'GET http://999.999.999.999/ HTTP/1.1', 'GET http://[::1/ HTTP/1.1', 'GET ws://a:70000/x HTTP/1.1'];

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `line` with a Host header and `Connection: close` to 127.0.0.1:`port`, then `chunks`
 * (chunked transfer encoding: each one framed as a chunk, then the last, empty one).
 * @example await rawRequest(port, 'GET http://a:99999/ HTTP/1.1') // { status: 400, … }
 */
export function rawRequest(port: number, line: string, headers: Record<string, string> = {}, chunks: Buffer[] = []): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(Buffer.from(`${line}\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`, 'utf8'));
      for (const chunk of chunks) socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
      if (chunks.length > 0) socket.write('0\r\n\r\n');
    });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // The server may answer and close before it has read all that was sent (a body over its limit).
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? undefined : reject(err)));
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? NaN);
      const parsed: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) parsed[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const body = rest.join('\r\n\r\n');
      resolve({ status, headers: parsed, body: parsed['transfer-encoding'] === 'chunked' ? dechunk(body) : body });
    });
  });
}

/** A chunked body's data. */
function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!(size > 0)) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
