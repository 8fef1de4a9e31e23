/**
 * A fake Slack on a loopback port: the Web API (`<url>/api/<method>`, form-encoded as
 * @slack/web-api sends it, objects as JSON strings) and response_urls (`<url>/response/<n>`,
 * JSON as Bolt's respond() posts it). It records every call and answers as Slack does
 * (`{ ok: true, … }`), or with an error set by {@link FakeSlack.fail}.
 *
 * Messages posted with chat.postMessage are kept per channel (with their message metadata) and
 * read back by conversations.history as Slack documents it: newest first, `oldest`/`latest`/
 * `inclusive`, `limit` with a `next_cursor`, metadata only with `include_all_metadata`. Faults
 * for posts ({@link FakeSlack.postFault}): a 5xx or a 429 with Retry-After (nothing posted), or
 * the message posted and its answer slow, held or lost to a connection reset; {@link FakeSlack.down}
 * and {@link FakeSlack.up} close and reopen the port (connections refused meanwhile).
 *
 * Files, as Slack's documented upload flow has them (what `files.uploadV2` does):
 * `files.getUploadURLExternal` (`filename`, `length` in bytes) answers `{ ok, upload_url,
 * file_id }`; the bytes are POSTed to the upload URL, raw or multipart/form-data, without a token
 * (the URL is the authorization), answered `200 OK - <bytes>`; `files.completeUploadExternal`
 * (`files` a JSON array of `{ id, title }`, `channel_id`, `initial_comment`) shares them and
 * answers `{ ok, files: [{ id, title }] }`. {@link FakeSlack.files} lists what was shared where.
 * `conversations.open` (`users`) answers the DM channel `{ ok, channel: { id: 'D…' } }`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A JSON object as the tests read it. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const BOT_USER_ID = 'U0BOT';
export const BOT_ID = 'B0BOT';
export const APP_ID = 'A0PAPERS';
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

/** A message in a channel, as conversations.history returns it (metadata kept apart). */
export interface SlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown;
  metadata?: Json;
  /** Who posted it; the bot when absent. */
  user?: string;
}

/** What the fake does with a chat.postMessage instead of answering it at once. */
export type PostFault =
  /** Answers this HTTP status (a 5xx); nothing is posted. */
  | { status: number }
  /** Answers 429 with this Retry-After (seconds); nothing is posted. */
  | { retryAfter: number }
  /** Posts the message, then resets the connection: the answer is lost. */
  | { reset: true }
  /** Posts the message, and answers once `until` settles (a slow answer). */
  | { hold: Promise<unknown> }
  /** Takes the request and never answers, without posting (lost before the platform kept it). */
  | { swallow: true };

/** A file uploaded through the external upload flow. */
export interface SlackFile {
  id: string;
  filename: string;
  /** The `length` given to files.getUploadURLExternal. */
  length: number;
  /** What reached the upload URL, if anything did. */
  content?: string;
  bytes?: number;
  /** Where files.completeUploadExternal shared it (undefined: private to the app), with its title and message. */
  shared?: { channel: string | undefined; title: string | undefined; comment: string | undefined };
}

interface Failure {
  method: string;
  error: string;
  when: (args: Record<string, unknown>) => boolean;
}

export class FakeSlack {
  readonly calls: ApiCall[] = [];
  readonly posts: ResponsePost[] = [];
  /** Messages posted to channels, oldest first. */
  readonly messages: SlackMessage[] = [];
  /** Decides, for each chat.postMessage, whether it meets a fault. */
  postFault: ((args: Json, n: number) => PostFault | undefined) | undefined;
  /** The fake's clock, for message timestamps (ms since the epoch). */
  now: () => number = () => Date.now();
  /** Files by id, in the order their upload URLs were handed out. */
  readonly uploads = new Map<string, SlackFile>();
  /** Bot tokens the Web API accepts (more are added by the loopback install flow, fakeOAuth.ts). */
  readonly botTokens = new Set([BOT_TOKEN]);
  /** Methods that take no bearer token (oauth.v2.access, oauth.v2.exchange), answered by their handler. */
  readonly unauthenticated = new Map<string, (args: Json, authorization: string | undefined) => Json>();
  private readonly failures: Failure[] = [];
  private readonly answers = new Map<string, (args: Json, token: string | undefined) => Json>();
  private readonly listeners = new Set<() => void>();
  private responses = 0;
  private serial = 0;
  private postCount = 0;
  private port = 0;
  private readonly pending = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  /** Starts the fake on 127.0.0.1 and a free port. */
  static async start(): Promise<FakeSlack> {
    const server = createServer();
    const fake = new FakeSlack(server);
    server.on('request', (req, res) => {
      void readBody(req).then(async (raw) => {
        const answer = await fake.handle(req, raw);
        if (answer.reset) {
          req.socket.resetAndDestroy();
          return;
        }
        if (answer.hold) await fake.settled(answer.hold);
        if (res.destroyed || answer.status === 0) {
          res.destroy(); // swallowed: never answered
          return;
        }
        if (typeof answer.body === 'string') {
          res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body);
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    fake.port = (server.address() as AddressInfo).port;
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Closes the port: connections are refused until {@link FakeSlack.up}. */
  async down(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
    await clientsSeeTheClose();
  }

  /** Listens again on the same port. */
  async up(): Promise<void> {
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }

  /** Messages posted to `channel`, oldest first. */
  messagesIn(channel: string): SlackMessage[] {
    return this.messages.filter((m) => m.channel === channel);
  }

  /** A message someone else posted in a channel, now by the fake's clock. */
  addMessage(channel: string, text: string, metadata?: Json): SlackMessage {
    const message: SlackMessage = { channel, ts: this.ts(), text, ...(metadata && { metadata }), user: 'U0MEMBER' };
    this.messages.push(message);
    return message;
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
  answer(method: string, answer: (args: Json, token: string | undefined) => Json): void {
    this.answers.set(method, answer);
  }

  /** Web API calls of `method` (all of them, in order). */
  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Files shared with files.completeUploadExternal, in order. */
  files(): Array<SlackFile & { shared: NonNullable<SlackFile['shared']> }> {
    return [...this.uploads.values()].filter((f): f is SlackFile & { shared: NonNullable<SlackFile['shared']> } => f.shared !== undefined);
  }

  /** The DM channel of the bot with `user` (what conversations.open answers). */
  dmWith(user: string): string {
    return `D0${user.replace(/^U0?/, '')}`.slice(0, 20);
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
    for (const release of this.pending) release();
    if (!this.server.listening) return;
    await this.down();
  }

  /** Resolves when `hold` settles, or when the fake closes. */
  private settled(hold: Promise<unknown>): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.pending.delete(release);
        resolve();
      };
      this.pending.add(release);
      hold.then(release, release);
    });
  }

  private async handle(req: IncomingMessage, bytes: Buffer): Promise<Answer> {
    const path = new URL(req.url ?? '/', this.origin).pathname;
    const raw = bytes.toString('utf8');
    try {
      if (path.startsWith('/response/')) {
        this.posts.push({ url: `${this.origin}${path}`, body: JSON.parse(raw) as Json, at: performance.now() });
        return { status: 200, body: { ok: true } };
      }
      const upload = /^\/upload\/v1\/(F\w+)$/.exec(path)?.[1];
      if (upload) return await this.receiveUpload(upload, bytes, req.headers['content-type']);
      const method = /^\/api\/([\w.]+)$/.exec(path)?.[1];
      if (!method) return { status: 404, body: { ok: false, error: 'unknown_method' } };
      const args = parseArgs(raw, req.headers['content-type']);
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? (typeof args.token === 'string' ? args.token : undefined);
      this.calls.push({ method, args, token });
      const open = this.unauthenticated.get(method);
      if (open) return { status: 200, body: open(args, req.headers.authorization) };
      if (method === 'apps.connections.open' ? token !== APP_TOKEN : !this.botTokens.has(token ?? '')) return { status: 200, body: { ok: false, error: 'invalid_auth' } };
      const failure = this.failures.find((f) => f.method === method && f.when(args));
      if (failure) return { status: 200, body: { ok: false, error: failure.error } };
      const fault = method === 'chat.postMessage' ? this.postFault?.(args, this.postCount++) : undefined;
      if (fault && 'swallow' in fault) return { status: 0, body: undefined, hold: new Promise(() => undefined) };
      if (fault && 'status' in fault) return { status: fault.status, body: { ok: false, error: 'internal_error' } };
      if (fault && 'retryAfter' in fault) return { status: 429, headers: { 'retry-after': String(fault.retryAfter) }, body: { ok: false, error: 'ratelimited' } };
      const answer: Answer = { status: 200, body: this.answers.get(method)?.(args, token) ?? this.defaultAnswer(method, args) };
      if (fault && 'reset' in fault) answer.reset = true;
      if (fault && 'hold' in fault) answer.hold = fault.hold;
      return answer;
    } finally {
      for (const listener of [...this.listeners]) listener();
    }
  }

  private defaultAnswer(method: string, args: Json): Json {
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://lab.slack.com/', team: 'Lab', user: 'paperscout', team_id: 'T0LAB', user_id: BOT_USER_ID, bot_id: BOT_ID };
      case 'chat.postMessage': {
        const message: SlackMessage = { channel: String(args.channel), ts: this.ts(), text: String(args.text ?? ''), blocks: args.blocks, ...(args.metadata && { metadata: args.metadata }) };
        this.messages.push(message);
        return { ok: true, channel: args.channel, ts: message.ts, message: this.wire(message, true) };
      }
      case 'conversations.history':
        return this.history(args);
      case 'chat.update':
        return { ok: true, channel: args.channel, ts: args.ts, text: args.text };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: this.ts() };
      case 'conversations.open': {
        const user = String(args.users ?? '').split(',')[0] ?? '';
        if (!/^[UW][A-Z0-9]+$/.test(user)) return { ok: false, error: 'user_not_found' };
        return { ok: true, no_op: true, already_open: true, channel: { id: this.dmWith(user) } };
      }
      case 'files.getUploadURLExternal': {
        const length = Number(args.length);
        if (typeof args.filename !== 'string' || args.filename === '' || !Number.isInteger(length) || length <= 0) return { ok: false, error: 'invalid_arguments' };
        const id = `F0${String(this.uploads.size + 1).padStart(8, '0')}`;
        this.uploads.set(id, { id, filename: args.filename, length });
        return { ok: true, upload_url: `${this.origin}/upload/v1/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal':
        return this.completeUpload(args);
      default:
        return { ok: true };
    }
  }

  /** The bytes of a file reach its upload URL: raw, or as the file part of a multipart form. */
  private async receiveUpload(id: string, bytes: Buffer, contentType: string | undefined): Promise<Answer> {
    const file = this.uploads.get(id);
    if (!file || file.content !== undefined) return { status: 404, body: 'Not Found' };
    let data = bytes;
    if (contentType?.startsWith('multipart/form-data')) {
      const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
      const part = [...form.values()].find((v) => typeof v !== 'string');
      if (!part || typeof part === 'string') return { status: 400, body: 'Bad Request' };
      data = Buffer.from(await part.arrayBuffer());
    }
    file.content = data.toString('utf8');
    file.bytes = data.length;
    return { status: 200, body: `OK - ${data.length}` };
  }

  /** files.completeUploadExternal: every file uploaded, in full, shares it (once). */
  private completeUpload(args: Json): Json {
    const files = Array.isArray(args.files) ? (args.files as Json[]) : undefined;
    if (!files || files.length === 0) return { ok: false, error: 'invalid_arguments' };
    const found = files.map((f) => this.uploads.get(String(f.id)));
    // The fake's own answer for a file that was never uploaded whole, or shared already.
    if (found.some((f) => !f || f.bytes !== f.length || f.shared)) return { ok: false, error: 'file_upload_incomplete' };
    const channel = typeof args.channel_id === 'string' ? args.channel_id : undefined;
    const comment = typeof args.initial_comment === 'string' ? args.initial_comment : undefined;
    files.forEach((f, i) => (found[i]!.shared = { channel, title: typeof f.title === 'string' ? f.title : undefined, comment }));
    if (channel) this.messages.push({ channel, ts: this.ts(), text: comment ?? '' });
    return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) };
  }

  /** A message timestamp from the fake's clock, unique: seconds, and a serial in the microseconds. */
  private ts(): string {
    const ms = this.now();
    return `${Math.floor(ms / 1000)}.${String(((ms % 1000) * 1000 + (++this.serial % 1000)) % 1_000_000).padStart(6, '0')}`;
  }

  /** A bot message as Slack's history and chat.postMessage return it. */
  private wire(m: SlackMessage, withMetadata: boolean): Json {
    return {
      type: 'message',
      text: m.text,
      user: m.user ?? BOT_USER_ID,
      ...(!m.user && { bot_id: BOT_ID, app_id: APP_ID }),
      team: 'T0LAB',
      ts: m.ts,
      ...(m.blocks !== undefined && { blocks: m.blocks }),
      ...(!m.user && { bot_profile: { id: BOT_ID, app_id: APP_ID, name: 'Paper Scout', deleted: false, team_id: 'T0LAB' } }),
      ...(withMetadata && m.metadata && { metadata: m.metadata }),
    };
  }

  /** conversations.history: newest first, between `oldest` and `latest`, a page at a time. */
  private history(args: Json): Json {
    const channel = String(args.channel ?? '');
    if (!/^[CGD]/.test(channel)) return { ok: false, error: 'channel_not_found' };
    const inclusive = args.inclusive === true || args.inclusive === 'true' || args.inclusive === '1';
    const oldest = args.oldest === undefined ? 0 : Number(args.oldest);
    const latest = args.latest === undefined ? Infinity : Number(args.latest);
    const before = args.cursor ? Number(Buffer.from(String(args.cursor), 'base64').toString('utf8').replace(/^next_ts:/, '')) : Infinity;
    const inRange = this.messagesIn(channel)
      .filter((m) => {
        const ts = Number(m.ts);
        return (inclusive ? ts >= oldest && ts <= latest : ts > oldest && ts < latest) && ts < before;
      })
      .reverse();
    const limit = Math.min(Number(args.limit ?? 100) || 100, 999);
    const page = inRange.slice(0, limit);
    const hasMore = inRange.length > limit;
    const metadata = args.include_all_metadata === true || args.include_all_metadata === 'true' || args.include_all_metadata === '1';
    return {
      ok: true,
      messages: page.map((m) => this.wire(m, metadata)),
      has_more: hasMore,
      pin_count: 0,
      channel_actions_ts: null,
      channel_actions_count: 0,
      response_metadata: { next_cursor: hasMore ? Buffer.from(`next_ts:${page.at(-1)!.ts}`).toString('base64') : '' },
    };
  }
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Reset the connection instead of answering. */
  reset?: boolean;
  /** Answer once this settles. */
  hold?: Promise<unknown>;
}

/**
 * Lets the clients in this process read the end of the connections just closed (an event-loop
 * turn or two), so that their next request connects anew and is refused, instead of being
 * written to a kept-alive socket that is already gone.
 */
export async function clientsSeeTheClose(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
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
