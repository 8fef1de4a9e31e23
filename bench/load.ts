/**
 * The load run (`npm run bench -- --load [--minutes 10] [--rate 1000] [--lock-minute 4]`):
 * `npm start`, compiled, in its own process, serving Discord and Slack on loopback (the fakes of
 * the adapter tests, in this process) at 1,000 commands a minute, while digests fall due every
 * minute, another process imports 30k new records into the same DATA_DIR (minute 1), and another
 * holds the database's write lock for 20 s (minute 4). Prints p50/p99/max latency, errors and
 * the bot's RSS for every minute. Asserts nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { deployCommands } from '../adapters/discord/deploy.js';
import { SqliteDigestStore } from '../src/store/sqlite/digests.js';
import { openDatabase } from '../src/store/sqlite/db.js';
import { loadTaxonomy } from '../src/topics/taxonomy.js';
import { FakeDiscord } from '../test/adapters/discord/fakeDiscord.js';
import { BOT_TOKEN, FakeSlack } from '../test/adapters/slack/fakeSlack.js';
import { SIGNING_SECRET } from '../test/adapters/slack/harness.js';
import { AUTOCOMPLETE_PREFIXES, KEYWORD_QUERIES } from './queries.js';
import { Traffic, type Outcome } from './loadTraffic.js';
import { fmtMs, percentile } from './stats.js';

export interface LoadOptions {
  /** The repository root (for dist/ and the lock holder). */
  root: string;
  /** A paperlists tree. */
  corpus: string;
  minutes: number;
  /** Commands a minute. */
  rate: number;
  /** Minute (1-based) whose first 20 s another process holds the write lock; 0 for none. */
  lockMinute: number;
  out: (line?: string) => void;
}

/** Records the other process imports during the run. */
const INGEST_RECORDS = 30_000;
const LOCK_SECONDS = 20;
/** Digest subscriptions falling due each minute, per platform. */
const DIGESTS_PER_MINUTE = 8;
const WARM_UP_COMMANDS = 200;
const MINUTE_MS = 60_000;

interface BotLog {
  at: number;
  level: number;
  msg: string;
}

export async function runLoad(o: LoadOptions): Promise<void> {
  const { out } = o;
  const dataDir = mkdtempSync(join(tmpdir(), 'paperscout-load-'));
  const cli = join(o.root, 'dist/adapters/cli/cli.js');
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json' };
  let bot: ChildProcess | undefined;
  const fakes: { discord?: FakeDiscord; slack?: FakeSlack } = {};
  try {
    // ── The library: the corpus but the last 30k records, which another process imports during the run.
    const { held, base, titles, authors } = splitCorpus(o.corpus);
    out(`Importing ${base.records.toLocaleString('en-US')} records; ${held.records.toLocaleString('en-US')} (${held.files.length} files) are left for the import during the run…`);
    const first = spawnSync(process.execPath, [cli, 'ingest', ...base.files], { env, encoding: 'utf8' });
    if (first.status !== 0) throw new Error(`ingest failed: ${first.stderr}`);
    const startsAt = Date.now() + 90_000; // set-up and warm-up take about that long
    await subscribe(join(dataDir, 'paperscout.db'), startsAt, o.minutes);

    // ── The platforms, and the bot as `npm start` runs it.
    const discord = (fakes.discord = await FakeDiscord.start());
    const slack = (fakes.slack = await FakeSlack.start());
    await deployCommands({ token: discord.token, apiUrl: discord.apiUrl }, () => undefined);
    const port = await freePort();
    const logs: BotLog[] = [];
    bot = spawn(process.execPath, [join(o.root, 'dist/adapters/main.js')], {
      env: {
        ...env,
        LOG_LEVEL: 'info',
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.apiUrl,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: String(port),
        ARXIV_SYNC_TIME: utcTime(Date.now() + 12 * 3600_000),
        ARXIV_RSS_URL: 'http://127.0.0.1:9/rss/',
        ARXIV_API_URL: 'http://127.0.0.1:9/api/query',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const running = collectLogs(bot, logs);
    await running;
    const traffic = new Traffic({
      discord,
      slack,
      slackUrl: `http://127.0.0.1:${port}/slack/events`,
      queries: [...KEYWORD_QUERIES, ...titles, ...authors, ...KEYWORD_QUERIES.slice(0, 20).map((q, i) => `${q} ${['year:>=2020', 'venue:icml', 'sort:new'][i % 3]}`)],
      prefixes: AUTOCOMPLETE_PREFIXES,
      topics: loadTaxonomy().topics.map((t) => t.label),
      horizonMs: (o.minutes + 5) * MINUTE_MS,
    });
    traffic.start();
    out(`Warming up (${WARM_UP_COMMANDS} commands), then ${o.minutes} minutes at ${o.rate.toLocaleString('en-US')} commands a minute…`);
    for (let i = 0; i < WARM_UP_COMMANDS; i++) await traffic.next();
    while (Date.now() < startsAt) await new Promise((r) => setTimeout(r, 50));

    // ── The run: commands on a fixed schedule (open loop), the import, the lock, RSS each minute.
    const outcomes: Outcome[] = [];
    const pending: Array<Promise<void>> = [];
    const started = performance.now();
    const rss: number[] = [];
    const load: number[] = [];
    const events: Array<{ minute: number; text: string }> = [];
    const interval = MINUTE_MS / o.rate;
    const total = o.minutes * o.rate;
    let ingest: Promise<void> | undefined;
    let lock: Promise<void> | undefined;
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const minute = Math.floor(i / o.rate) + 1;
      if (i % o.rate === 0) {
        if (minute > 1) {
          rss.push(rssOf(bot));
          load.push(loadavg()[0]!);
        }
        if (minute === 1) ingest = importDuring(cli, env, held.files, started, events);
        if (minute === o.lockMinute) lock = holdLockDuring(o.root, join(dataDir, 'paperscout.db'), started, events);
      }
      pending.push(traffic.next().then((outcome) => void outcomes.push(outcome)));
    }
    await Promise.all(pending);
    rss.push(rssOf(bot));
    load.push(loadavg()[0]!);
    traffic.stop();
    await Promise.all([ingest, lock]);

    // ── Report.
    const logsFrom = (at: number) => logs.filter((l) => l.at >= at);
    const runLogs = logsFrom(Date.now() - (performance.now() - started));
    const posts = digestPosts(discord, slack);
    report(o, { outcomes, started, rss, load, events, logs: runLogs, posts });
  } finally {
    if (bot && bot.exitCode === null) {
      bot.kill('SIGTERM');
      await Promise.race([once(bot, 'exit'), new Promise((r) => setTimeout(r, 15_000))]);
    }
    await fakes.discord?.close();
    await fakes.slack?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The corpus' files in path order, the last ones up to {@link INGEST_RECORDS} records held back; sample titles and authors. */
function splitCorpus(corpus: string) {
  const files = (readdirSync(corpus, { recursive: true }) as string[]).filter((f) => f.endsWith('.json')).sort().map((f) => join(corpus, f));
  const held = { files: [] as string[], records: 0 };
  const base = { files: [] as string[], records: 0 };
  const titles: string[] = [];
  const authors: string[] = [];
  for (const file of [...files].reverse()) {
    const records = JSON.parse(readFileSync(file, 'utf8')) as Array<{ title?: string; author?: string }>;
    const part = held.records < INGEST_RECORDS ? held : base;
    part.files.push(file);
    part.records += records.length;
    if (part === base && records.length > 0) {
      const r = records[Math.floor(records.length / 2)]!;
      if (r.title && titles.length < 120) titles.push(r.title);
      const first = r.author?.split(';')[0]?.trim();
      if (first && authors.length < 60) authors.push(first);
    }
  }
  return { held, base, titles, authors };
}

/** Subscriptions due in every minute of the run from the second, on both platforms, daily in UTC. */
async function subscribe(dbPath: string, startsAt: number, minutes: number): Promise<void> {
  const db = openDatabase(dbPath);
  try {
    const digests = new SqliteDigestStore(db);
    const topics = loadTaxonomy().topics;
    const createdAt = new Date(startsAt - MINUTE_MS).toISOString();
    let n = 0;
    for (let minute = 2; minute <= minutes; minute++) {
      const time = utcTime(startsAt + (minute - 1) * MINUTE_MS + 1000);
      for (const platform of ['discord', 'slack'] as const) {
        for (let i = 0; i < DIGESTS_PER_MINUTE; i++, n++) {
          const topic = topics[n % topics.length]!;
          await digests.subscribe({
            platform,
            workspace: platform === 'discord' ? '1190000000000000100' : 'T0LAB',
            channel: platform === 'discord' ? String(1190000000000900000n + BigInt(n)) : `C0LOAD${n}`,
            query: `topic:"${topic.id}"`,
            label: topic.label,
            time,
            timezone: 'UTC',
            days: 'daily',
            count: 5,
            fill: true,
            createdBy: 'load',
            createdAt,
          });
        }
      }
    }
  } finally {
    db.close();
  }
}

/** Resolves once the bot says it is running; keeps its JSON log lines. */
function collectLogs(bot: ChildProcess, logs: BotLog[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: bot.stderr! });
    lines.on('line', (line) => {
      let entry: { level?: number; msg?: string; time?: number; ms?: number; papers?: number; err?: { message?: string } };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        logs.push({ at: Date.now(), level: 60, msg: line });
        return;
      }
      const detail = [entry.err?.message, entry.papers !== undefined && `${entry.papers} papers`, entry.ms !== undefined && `${entry.ms} ms`].filter(Boolean).join(', ');
      logs.push({ at: entry.time ?? Date.now(), level: entry.level ?? 30, msg: `${entry.msg ?? ''}${detail ? ` (${detail})` : ''}` });
      if (entry.msg === 'Paper Scout is running') resolve();
    });
    bot.once('exit', (code) => reject(new Error(`the bot exited (${code}) before it was running: ${logs.map((l) => l.msg).join(' | ')}`)));
  });
}

function importDuring(cli: string, env: NodeJS.ProcessEnv, files: string[], started: number, events: Array<{ minute: number; text: string }>): Promise<void> {
  const child = spawn(process.execPath, [cli, 'ingest', ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.resume();
  const at = performance.now();
  return once(child, 'exit').then(([code]) => {
    const done = performance.now();
    const summary = /Library: .*/.exec(stdout)?.[0] ?? `exit ${String(code)}`;
    events.push({ minute: minuteOf(at, started), text: `import of ${files.length} files started` });
    events.push({ minute: minuteOf(done, started), text: `import done in ${((done - at) / 1000).toFixed(1)} s (${summary})` });
  });
}

function holdLockDuring(root: string, dbPath: string, started: number, events: Array<{ minute: number; text: string }>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/store/helpers/lockHolder.ts'), dbPath], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve) => {
    child.stdout.once('data', () => {
      const at = performance.now();
      events.push({ minute: minuteOf(at, started), text: `write lock held by another process for ${LOCK_SECONDS} s (from ${((at - started) / 1000).toFixed(0)} s)` });
      setTimeout(() => {
        child.stdin.write('release\n');
        void once(child, 'exit').then(() => resolve());
      }, LOCK_SECONDS * 1000);
    });
  });
}

function digestPosts(discord: FakeDiscord, slack: FakeSlack): { discord: number; slack: number } {
  return { discord: discord.channelMessages.length, slack: slack.callsOf('chat.postMessage').length };
}

interface Results {
  outcomes: Outcome[];
  started: number;
  rss: number[];
  /** The machine's 1-minute load average at the end of each minute (other work shares the cores). */
  load: number[];
  events: Array<{ minute: number; text: string }>;
  logs: BotLog[];
  posts: { discord: number; slack: number };
}

function report(o: LoadOptions, r: Results): void {
  const { out } = o;
  const pad = (s: string | number, n: number) => String(s).padStart(n);
  const ms = (values: number[]) => values.filter(Number.isFinite);
  out();
  out(`Load run: ${o.minutes} min at ${o.rate.toLocaleString('en-US')} commands a minute, alternating Discord and Slack (loopback); bot = dist/adapters/main.js in its own process`);
  out(`latency = command sent → answer received by the fake platform; goal p99 ≤ 100 ms, zero errors, RSS flat from minute 2 to ${o.minutes}`);
  out(`load = the machine's 1-minute load average (${cpus().length} cores, shared with whatever else runs)`);
  out();
  out(`${'minute'.padEnd(7)}${pad('commands', 9)}${pad('p50', 10)}${pad('p99', 10)}${pad('max', 11)}${pad('errors', 8)}${pad('degraded', 9)}${pad('RSS', 9)}${pad('load', 6)}  bot log (errors/warnings) · events`);
  for (let m = 1; m <= o.minutes; m++) {
    const inMinute = r.outcomes.filter((x) => minuteOf(x.sentAt, r.started) === m);
    const times = ms(inMinute.map((x) => x.ms));
    const logs = r.logs.filter((l) => l.level >= 40 && minuteOfWall(l.at, r) === m);
    const notes = [
      logs.length > 0 ? `${logs.filter((l) => l.level >= 50).length}/${logs.filter((l) => l.level === 40).length} log` : '',
      ...r.events.filter((e) => e.minute === m).map((e) => e.text),
    ].filter(Boolean);
    out(
      `${String(m).padEnd(7)}${pad(inMinute.length, 9)}${pad(fmtMs(percentile(times, 0.5)), 10)}${pad(fmtMs(percentile(times, 0.99)), 10)}` +
        `${pad(fmtMs(Math.max(...times)), 11)}${pad(inMinute.filter((x) => x.error).length, 8)}${pad(inMinute.filter((x) => x.degraded).length, 9)}` +
        `${pad(`${Math.round((r.rss[m - 1] ?? Number.NaN) / 1048576)} MB`, 9)}${pad((r.load[m - 1] ?? Number.NaN).toFixed(1), 6)}  ${notes.join(' · ')}`,
    );
  }
  const all = ms(r.outcomes.map((x) => x.ms));
  const errors = r.outcomes.filter((x) => x.error);
  out(
    `${'all'.padEnd(7)}${pad(r.outcomes.length, 9)}${pad(fmtMs(percentile(all, 0.5)), 10)}${pad(fmtMs(percentile(all, 0.99)), 10)}${pad(fmtMs(Math.max(...all)), 11)}` +
      `${pad(errors.length, 8)}${pad(r.outcomes.filter((x) => x.degraded).length, 9)}`,
  );
  out();
  const rssLine = (from: number) => {
    const mb = r.rss.slice(from - 1).map((b) => b / 1048576);
    return `${mb[0]!.toFixed(0)} → ${mb.at(-1)!.toFixed(0)} MB (min ${Math.min(...mb).toFixed(0)}, max ${Math.max(...mb).toFixed(0)})`;
  };
  if (o.minutes > 2) out(`RSS at the end of minute 2 → ${o.minutes}: ${rssLine(2)}`);
  // The import grows the library by a third: the bot's RSS grows with the index it loads.
  const reload = r.logs.find((l) => l.msg.startsWith('search index loaded'));
  const settledFrom = reload ? minuteOfWall(reload.at, r) + 1 : 0;
  if (reload && settledFrom < o.minutes) out(`RSS after the grown index was loaded (minute ${settledFrom} → ${o.minutes}): ${rssLine(settledFrom)}`);
  for (const platform of ['discord', 'slack'] as const) {
    const kinds = [...new Set(r.outcomes.filter((x) => x.platform === platform).map((x) => x.kind))];
    const parts = kinds.map((k) => {
      const t = ms(r.outcomes.filter((x) => x.platform === platform && x.kind === k).map((x) => x.ms));
      return `${k} ${t.length} p99 ${fmtMs(percentile(t, 0.99))}`;
    });
    out(`${platform}: ${parts.join(' · ')}`);
  }
  if (o.lockMinute > 0) {
    const from = (o.lockMinute - 1) * MINUTE_MS;
    const locked = r.outcomes.filter((x) => x.sentAt - r.started >= from && x.sentAt - r.started < from + LOCK_SECONDS * 1000);
    const t = ms(locked.map((x) => x.ms));
    out(
      `during the ${LOCK_SECONDS} s write lock: ${locked.length} commands, p99 ${fmtMs(percentile(t, 0.99))}, max ${fmtMs(Math.max(...t))}, ` +
        `${locked.filter((x) => x.error).length} errors, ${locked.filter((x) => x.degraded).length} degraded (${[...new Set(locked.flatMap((x) => (x.degraded ? [x.degraded] : [])))].join(', ') || 'none'})   goal: every reply within 2.5 s`,
    );
  }
  out(`digests posted: ${r.posts.discord} Discord messages, ${r.posts.slack} Slack messages (${DIGESTS_PER_MINUTE * 2} subscriptions due each minute from minute 2)`);
  const byReason = new Map<string, number>();
  for (const e of errors) byReason.set(`${e.platform} ${e.kind}: ${e.error}`, (byReason.get(`${e.platform} ${e.kind}: ${e.error}`) ?? 0) + 1);
  for (const [reason, count] of byReason) out(`  error ×${count}: ${reason}`);
  const logReasons = new Map<string, number>();
  for (const l of r.logs.filter((x) => x.level >= 40)) logReasons.set(`${l.level >= 50 ? 'error' : 'warn'}: ${l.msg.slice(0, 160)}`, (logReasons.get(`${l.level >= 50 ? 'error' : 'warn'}: ${l.msg.slice(0, 160)}`) ?? 0) + 1);
  for (const [msg, count] of logReasons) out(`  bot log ×${count} ${msg}`);
  for (const l of r.logs.filter((x) => x.msg.startsWith('search index'))) out(`  bot: ${l.msg} (minute ${minuteOfWall(l.at, r)})`);
}

function minuteOf(at: number, started: number): number {
  return Math.floor((at - started) / MINUTE_MS) + 1;
}

/** The run minute of a wall-clock time (log lines carry Date.now()). */
function minuteOfWall(at: number, r: Pick<Results, 'started'>): number {
  return minuteOf(at - (Date.now() - performance.now()), r.started);
}

function rssOf(child: ChildProcess): number {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
  } catch {
    return Number.NaN;
  }
}

function utcTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
