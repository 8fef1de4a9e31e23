/**
 * `npm start` (adapters/main.ts, as a process) on a port another program holds: one line that
 * names the port and the fix, no stack trace, exit 1; for Slack's own server and for the small
 * one that serves health and metrics beside Discord.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dataDir: string;
let taken: Server;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paperscout-port-'));
  taken = createServer().listen(0, '0.0.0.0');
  await once(taken, 'listening');
  port = (taken.address() as { port: number }).port;
});
afterAll(() => {
  taken.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function start(env: Record<string, string>): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'adapters/main.ts')], {
      cwd: root,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', DIGEST_SCHEDULER: 'off', PORT: String(port), ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
  });
}

describe('npm start on a port that is taken', () => {
  it.each([
    ['Slack in HTTP mode', { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'secret', SLACK_API_URL: 'http://127.0.0.1:9/api/' }],
    ['Discord, with health and metrics', { DISCORD_TOKEN: 'MTA.x.y', DISCORD_API_URL: 'http://127.0.0.1:9/api' }],
  ])('%s: one line naming PORT, no stack trace', async (_, env) => {
    const { code, err } = await start(env);
    expect(code).toBe(1);
    const lines = err.trimEnd().split('\n').filter((l) => !l.startsWith('{"level"'));
    expect(lines).toEqual([`Paper Scout could not start: Port ${port} is already in use: stop whatever listens there or set PORT to a free port.`]);
  });
});
