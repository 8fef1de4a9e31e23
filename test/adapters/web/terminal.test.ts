/**
 * The site with no platform configured: `npm start` (adapters/main.ts, as a process) serves it
 * beside the terminal and the terminal says where; WEB=off serves none; a port already taken
 * leaves the site out with a warning while the terminal answers as before; a request line whose
 * address cannot be read gets the site's 400 and takes nothing down.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTerminal } from '../../../adapters/terminal/terminal.js';
import { CONTENT_SECURITY_POLICY } from '../../../adapters/web/site.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { MALFORMED_LINES, rawRequest } from '../helpers/rawHttp.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-site-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm start` without tokens on the demo corpus: its log lines and stdout once `/paper attention` was answered and the input ended. */
async function terminal(env: Record<string, string>, whileUp?: (site: string | undefined) => Promise<void>): Promise<{ logs: Array<Record<string, unknown>>; stdout: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/main.ts')], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, LOG_FORMAT: 'json', LOG_LEVEL: 'info', LOOKUP_UPSTREAM: 'off', DISCORD_TOKEN: '', SLACK_BOT_TOKEN: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const logs = () => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const started = new Promise<void>((resolve) =>
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (logs().some((l) => /starting the terminal adapter/.test(String(l.msg))) && logs().some((l) => /search site/.test(String(l.msg)) || env.WEB === 'off')) resolve();
    }),
  );
  const exited = once(child, 'exit');
  await Promise.race([started, exited]);
  const served = logs().find((l) => l.msg === 'the search site is served');
  await whileUp?.(served?.url as string | undefined);
  child.stdin.end('/paper attention\n');
  const [code] = (await exited) as [number | null];
  return { logs: logs(), stdout, code };
}

describe('npm start without platform tokens', () => {
  it('serves the site beside the terminal', async () => {
    let page = '';
    const run = await terminal({ PORT: '0' }, async (url) => {
      expect(url).toMatch(/^http:\/\/localhost:\d+\/$/);
      page = await (await fetch(`${url}search?q=attention`)).text();
    });
    expect(page).toContain('Attention Is All You Need');
    expect(run.stdout).toContain('Attention Is All You Need');
    expect(run.code).toBe(0);
  }, 60_000);

  it('answers request lines whose address cannot be read with the site’s 400, logged once at warn, and serves on', async () => {
    let page = '';
    const run = await terminal({ PORT: '0' }, async (url) => {
      const port = Number(new URL(url!).port);
      for (const line of MALFORMED_LINES) {
        const answer = await rawRequest(port, line);
        expect(answer.status, line).toBe(400);
        expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      }
      // Bytes the HTTP parser itself refuses never reach the site: Node answers 400 for them.
      expect((await rawRequest(port, 'GET ws://a:70000/\u2026 HTTP/1.1')).status).toBe(400);
      page = await (await fetch(`${url}search?q=attention`)).text();
    });
    expect(page).toContain('Attention Is All You Need');
    const refused = run.logs.filter((l) => /cannot be read/.test(String(l.msg)));
    expect(refused).toEqual([expect.objectContaining({ level: 40, url: 'http://a:99999/' })]);
    expect(run.logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(run.stdout).toContain('Attention Is All You Need');
    expect(run.code).toBe(0);
  }, 60_000);

  it('serves none with WEB=off', async () => {
    const run = await terminal({ PORT: '0', WEB: 'off' });
    expect(run.logs.some((l) => /search site/.test(String(l.msg)))).toBe(false);
    expect(run.stdout).toContain('Attention Is All You Need');
    expect(run.code).toBe(0);
  }, 60_000);

  it('leaves the site out, saying why, when the port is taken; the terminal answers as before', async () => {
    const holder = createServer().listen(0, '0.0.0.0');
    await once(holder, 'listening');
    const port = (holder.address() as { port: number }).port;
    try {
      const run = await terminal({ PORT: String(port) });
      const warning = run.logs.find((l) => l.msg === 'the search site is not served (set PORT to a free port, or WEB=off)');
      expect(warning?.err).toBe(`Port ${port} is already in use: stop whatever listens there or set PORT to a free port.`);
      expect(run.stdout).toContain('Attention Is All You Need');
      expect(run.code).toBe(0);
    } finally {
      holder.close();
    }
  }, 60_000);
});

describe('the terminal', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.dispose());

  it('says where the site is when it starts', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const done = runTerminal(app, { input, output, interactive: true, siteUrl: 'http://localhost:3000/' });
    input.end();
    await done;
    expect(text.split('\n')[1]).toBe('The search site: http://localhost:3000/');
  });
});
