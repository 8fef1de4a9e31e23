/**
 * Walking an error's chain: the shapes the platform clients and fetch really throw (a fetch
 * TypeError with an undici cause, Slack's WebAPIRequestError with `original`, an AggregateError
 * of refused addresses), and chains that loop or never end.
 */
import { describe, expect, it } from 'vitest';
import { causeChain, errorCodes, innermostMessage, networkReason } from '../src/causes.js';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('causeChain', () => {
  it('follows cause, then original, outermost first', () => {
    const socket = coded('connect ECONNREFUSED 127.0.0.1:443', 'ECONNREFUSED');
    const fetchFailed = new TypeError('fetch failed', { cause: socket });
    const slack = Object.assign(coded('A request error occurred: fetch failed', 'slack_webapi_request_error'), { original: fetchFailed });
    expect(causeChain(slack)).toEqual([slack, fetchFailed, socket]);
  });

  it('ends at a value that is not an error, and keeps it', () => {
    const err = new Error('outer', { cause: 'a string cause' });
    expect(causeChain(err)).toEqual([err, 'a string cause']);
    expect(causeChain(undefined)).toEqual([]);
  });

  it('stops at a loop and at a chain that goes on', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(causeChain(a)).toEqual([a, b]);
    let deep: Error = new Error('root');
    for (let i = 0; i < 100; i++) deep = new Error(`level ${i}`, { cause: deep });
    expect(causeChain(deep).length).toBeLessThanOrEqual(8);
  });
});

describe('errorCodes', () => {
  it('lists the codes along the chain and of an AggregateError’s members', () => {
    const refused = new AggregateError([coded('connect ECONNREFUSED ::1:443', 'ECONNREFUSED'), coded('connect EHOSTUNREACH 10.0.0.1:443', 'EHOSTUNREACH')], '');
    const err = new TypeError('fetch failed', { cause: refused });
    expect(errorCodes(err)).toEqual(['ECONNREFUSED', 'EHOSTUNREACH']);
    expect(errorCodes(Object.assign(refused, { code: 'ECONNREFUSED' }))).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'EHOSTUNREACH']);
  });
});

describe('innermostMessage', () => {
  it('is the message of the last error, or the error itself as text', () => {
    expect(innermostMessage(new Error('fetch failed', { cause: new Error('socket hang up') }))).toBe('socket hang up');
    expect(innermostMessage(new Error('outer', { cause: 'text' }))).toBe('Error: outer');
    expect(innermostMessage('plain')).toBe('plain');
  });
});

describe('networkReason', () => {
  it('names the code of a failed fetch, and a timeout as such', () => {
    expect(networkReason(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }))).toBe('fetch failed (ECONNRESET)');
    expect(networkReason(coded('read ECONNRESET', 'ECONNRESET'))).toBe('read ECONNRESET (ECONNRESET)');
    expect(networkReason(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('timed out');
    expect(networkReason('down')).toBe('down');
  });

  it('never repeats the user name and password of a URL', () => {
    const refused = new TypeError('Request cannot be constructed from a URL that includes credentials: http://scout:p%40ss@word@127.0.0.1:9/api/query?id_list=1&x=a@b');
    expect(networkReason(refused)).toBe('Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:9/api/query?id_list=1&x=a@b');
    expect(networkReason('GET https://u:pw@host/ and ftp://v@host2/x')).toBe('GET https://host/ and ftp://host2/x');
  });
});
