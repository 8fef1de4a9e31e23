/**
 * A fake Slack on a loopback port: the Web API (`<url>/api/<method>`, form-encoded as
 * @slack/web-api sends it, objects as JSON strings) and response_urls (`<url>/response/<n>`,
 * JSON as Bolt's respond() posts it). It records every call and answers as Slack does
 * (`{ ok: true, … }`), or with an error set by {@link FakeSlack.fail}.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON object as the tests read it. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const BOT_USER_ID = 'U0BOT';
export const BOT_ID = 'B0BOT';
export const BOT_TOKEN = 'xoxb-test-token';
/** The app-level token Socket Mode opens its connection with. */
export const APP_TOKEN = 'xapp-test-token';

export interface ApiCall {
  method: string;
  args: Json;
  /** The bearer token the call carried. */
  token: string | undefined;
}

export interface ResponsePost {
  url: string;
  body: Json;
  /** performance.now() when it arrived (for round-trip timings in the same process). */
  at: number;
}

interface Failure {
  method: string;
  error: string;
  when: (args: Record<string, unknown>) => boolean;
}

export class FakeSlack {
  readonly calls: ApiCall[] = [];
  readonly posts: ResponsePost[] = [];
  private readonly failures: Failure[] = [];
  private readonly answers = new Map<string, (args: Json) => Json>();
  private readonly listeners = new Set<() => void>();
  private responses = 0;
  private messages = 0;

  private constructor(private readonly server: Server) {}

  /** Starts the fake on 127.0.0.1 and a free port. */
  static async start(): Promise<FakeSlack> {
    const server = createServer();
    const fake = new FakeSlack(server);
    server.on('request', (req, res) => {
      void readBody(req).then((raw) => {
        const answer = fake.handle(req, raw);
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The Web API base URL for `clientOptions.slackApiUrl` / SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  /** A fresh response_url. */
  responseUrl(): string {
    return `${this.origin}/response/${++this.responses}`;
  }

  /** Answers `method` with `{ ok: false, error }` whenever `when(args)` holds. */
  fail(method: string, error: string, when: (args: Record<string, unknown>) => boolean = () => true): void {
    this.failures.push({ method, error, when });
  }

  /** Answers `method` with `answer(args)` instead of the default. */
  answer(method: string, answer: (args: Json) => Json): void {
    this.answers.set(method, answer);
  }

  /** Web API calls of `method` (all of them, in order). */
  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** What was posted to a response_url, in order. */
  postsTo(url: string): Json[] {
    return this.posts.filter((p) => p.url === url).map((p) => p.body);
  }

  /** Waits until `count` posts reached `url` (default 1) and returns them. */
  async waitForPosts(url: string, count = 1, timeoutMs = 5000): Promise<Json[]> {
    await this.until(() => this.postsTo(url).length >= count, `${count} post(s) to ${url}`, timeoutMs);
    return this.postsTo(url);
  }

  /** Waits until the calls of `method` number more than `after`, and returns the next one. */
  async waitForCall(method: string, after: number, timeoutMs = 5000): Promise<ApiCall> {
    await this.until(() => this.callsOf(method).length > after, `a ${method} call`, timeoutMs);
    return this.callsOf(method)[after]!;
  }

  /** Resolves once `done()` holds (checked on every request the fake receives). */
  until(done: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new Error(`FakeSlack: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve();
      };
      this.listeners.add(check);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }

  private handle(req: IncomingMessage, raw: string): { status: number; body: unknown } {
    const path = new URL(req.url ?? '/', this.origin).pathname;
    try {
      if (path.startsWith('/response/')) {
        this.posts.push({ url: `${this.origin}${path}`, body: JSON.parse(raw) as Json, at: performance.now() });
        return { status: 200, body: { ok: true } };
      }
      const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
      if (!method) return { status: 404, body: { ok: false, error: 'unknown_method' } };
      const args = parseArgs(raw, req.headers['content-type']);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? (typeof args.token === 'string' ? args.token : undefined);
      this.calls.push({ method, args, token });
      if (token !== (method === 'apps.connections.open' ? APP_TOKEN : BOT_TOKEN)) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
      const failure = this.failures.find((f) => f.method === method && f.when(args));
      if (failure) return { status: 200, body: { ok: false, error: failure.error } };
      return { status: 200, body: this.answers.get(method)?.(args) ?? this.defaultAnswer(method, args) };
    } finally {
      for (const listener of [...this.listeners]) listener();
    }
  }

  private defaultAnswer(method: string, args: Json): Json {
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://lab.slack.com/', team: 'Lab', user: 'paperscout', team_id: 'T0LAB', user_id: BOT_USER_ID, bot_id: BOT_ID };
      case 'chat.postMessage': {
        const ts = `1760000000.${String(++this.messages).padStart(6, '0')}`;
        return { ok: true, channel: args.channel, ts, message: { type: 'message', text: args.text, bot_id: BOT_ID, ts } };
      }
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: `1760000000.${String(++this.messages).padStart(6, '0')}` };
      default:
        return { ok: true };
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => resolve(raw));
    req.on('error', reject);
  });
}

/** Form fields as @slack/web-api sends them: nested values are JSON strings. */
function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.includes('application/json')) return JSON.parse(raw || '{}') as Record<string, unknown>;
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    args[key] = /^[[{]/.test(value) ? (JSON.parse(value) as unknown) : value;
  }
  return args;
}
