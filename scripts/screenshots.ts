/**
 * `npm run docs:screenshots`: the README's pictures, taken in Debian's Chromium (or CHROME_PATH)
 * through puppeteer-core, written to docs/images/.
 *
 * - `site-results.png`: the search site's results page. The site is started as `npm start` starts
 *   it with no platform configured (adapters/main.ts from the sources: the terminal, with the site
 *   beside it on PORT), on an empty DATA_DIR, so that it serves the bundled demo corpus.
 * - `discord-card.png`: a `/paper` reply as Discord shows it. The reply is the real one (the
 *   command run through the registry on the demo corpus) and the message body is what the Discord
 *   adapter sends (`renderMessage`); the picture is an HTML mock-up of how Discord's dark theme
 *   draws that body, written here, not a capture of Discord's client.
 *
 * Each file must stay under {@link MAX_BYTES}; the script says so and exits 1 otherwise. The site's
 * language switch reads 中文: without a Chinese font (`fc-list :lang=zh`; Debian's
 * fonts-noto-cjk or fonts-wqy-zenhei, or one named by FONTCONFIG_FILE) it is drawn as boxes,
 * and the script says so.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { renderMessage, type DiscordMessage } from '../adapters/discord/render.js';
import { openApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(root, 'docs/images');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** Largest picture the README may carry. */
const MAX_BYTES = 150 * 1024;
/** What the site's picture searches for, and what the card's `/paper` asks. */
const SITE_QUERY = 'diffusion';
const CARD_QUERY = 'diffusion year:2022';

const scratch = mkdtempSync(join(tmpdir(), 'paperscout-screenshots-'));

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  if (!hasChineseFont()) process.stderr.write('No Chinese font (fc-list :lang=zh is empty): the site\'s "中文" will be drawn as boxes. apt-get install fonts-noto-cjk, or point FONTCONFIG_FILE at a configuration with one.\n');
  const browser = await puppeteer.launch({
    executablePath: CHROME,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${join(scratch, 'chromium')}`],
  });
  try {
    const written = [await siteResults(browser), await discordCard(browser)];
    const tooLarge = written.filter((file) => statSync(file).size > MAX_BYTES);
    for (const file of written) process.stdout.write(`${file.slice(root.length)}: ${(statSync(file).size / 1024).toFixed(0)} kB\n`);
    if (tooLarge.length > 0) {
      process.stderr.write(`Larger than ${MAX_BYTES / 1024} kB: ${tooLarge.join(', ')}. Make the page smaller (viewport, query).\n`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Whether fontconfig, which Chromium uses, has a font for Chinese. */
function hasChineseFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The results page of the site `npm start` serves beside the terminal, on the demo corpus. */
async function siteResults(browser: Browser): Promise<string> {
  const port = await freePort();
  const dir = join(scratch, 'site');
  mkdirSync(dir);
  // Only what the terminal mode needs: no platform token, no .env (the working directory is empty).
  const env = { PATH: process.env.PATH ?? '', HOME: dir, DATA_DIR: join(dir, 'data'), PORT: String(port), LOOKUP_UPSTREAM: 'off', LOG_LEVEL: 'warn', LANG: 'C.UTF-8' };
  const bot = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(root, 'adapters/main.ts')], { cwd: dir, env, stdio: ['pipe', 'ignore', 'inherit'] });
  try {
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(origin, bot);
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ 'accept-language': 'en' });
    await page.setViewport({ width: 1000, height: 760 });
    await page.goto(`${origin}/search?q=${encodeURIComponent(SITE_QUERY)}`, { waitUntil: 'load' });
    const file = join(OUT, 'site-results.png') as `${string}.png`;
    await page.screenshot({ path: file });
    return file;
  } finally {
    // The terminal ends with its input; the site closes with it.
    bot.stdin.end();
    await new Promise((resolve) => (bot.exitCode === null ? bot.once('exit', resolve) : resolve(undefined)));
  }
}

/** Waits until the site answers (the demo index is built first), or throws when the bot exits. */
async function waitFor(origin: string, bot: ReturnType<typeof spawn>): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (bot.exitCode !== null) throw new Error(`npm start's terminal mode exited (code ${bot.exitCode}) before its site answered`);
    try {
      if ((await fetch(`${origin}/`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the site did not answer at ${origin} within 2 minutes`);
}

/** A `/paper` reply on the demo corpus, rendered for Discord, drawn as Discord's dark theme draws it. */
async function discordCard(browser: Browser): Promise<string> {
  const config = loadConfig({ DATA_DIR: join(scratch, 'card'), LOOKUP_UPSTREAM: 'off' });
  const app = await openApp(config, createLogger({ logLevel: 'warn', logFormat: 'json' }));
  let message: DiscordMessage;
  try {
    const ctx = app.context('discord', { id: '1', name: 'ada' }, { channel: { id: '2', kind: 'channel' }, workspace: { id: '3' } });
    message = renderMessage(await app.registry.runText(ctx, 'paper', CARD_QUERY));
  } finally {
    await app.close();
  }
  const page = await browser.newPage();
  await page.setViewport({ width: 720, height: 400 });
  await page.setContent(discordHtml(message, `/paper ${CARD_QUERY}`), { waitUntil: 'load' });
  const file = join(OUT, 'discord-card.png') as `${string}.png`;
  const box = await page.$('#message');
  await box!.screenshot({ path: file });
  return file;
}

// ── Discord's dark theme, for the mock-up ────────────────────────────────────────────────────

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Discord's markdown as the adapter writes it: `\` escapes, `**bold**`, `[text](url)`. */
function inline(markdown: string): string {
  let out = '';
  let bold = false;
  for (let i = 0; i < markdown.length; i++) {
    const ch = markdown[i]!;
    if (ch === '\\' && i + 1 < markdown.length) {
      out += escapeHtml(markdown[++i]!);
    } else if (markdown.startsWith('**', i)) {
      out += bold ? '</strong>' : '<strong>';
      bold = !bold;
      i++;
    } else if (ch === '[' && /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/.test(markdown.slice(i))) {
      const [whole, label] = /^\[((?:\\.|[^\]\\])*)\]\(([^)\s]+)\)/.exec(markdown.slice(i))!;
      out += `<span class="link">${inline(label!)}</span>`;
      i += whole.length - 1;
    } else out += escapeHtml(ch);
  }
  return bold ? `${out}</strong>` : out;
}

/** Lines of markdown: `-# ` lines as Discord's small print. */
function lines(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => (line.startsWith('-# ') ? `<div class="subtext">${inline(line.slice(3))}</div>` : `<div>${inline(line)}</div>`))
    .join('');
}

function discordHtml(message: DiscordMessage, command: string): string {
  const embeds = message.embeds
    .map((e) => {
      const color = `#${(e.color ?? 0).toString(16).padStart(6, '0')}`;
      return `<div class="embed" style="border-left-color:${color}">
        ${e.author ? `<div class="author">${escapeHtml(e.author.name)}</div>` : ''}
        ${e.title ? `<div class="title">${inline(e.title)}</div>` : ''}
        ${e.description ? `<div class="description">${lines(e.description)}</div>` : ''}
        ${e.footer ? `<div class="footer">${escapeHtml(e.footer.text)}</div>` : ''}
      </div>`;
    })
    .join('');
  const rows = message.components
    .map((row) => {
      const parts = row.components.map((c) => {
        if (c.type === 3) return `<div class="select">${escapeHtml(c.placeholder ?? '')}<span class="chevron">⌄</span></div>`;
        if (c.type === 2) return `<div class="button${c.disabled ? ' disabled' : ''}">${escapeHtml(('label' in c && c.label) || '')}</div>`;
        return '';
      });
      return `<div class="row">${parts.join('')}</div>`;
    })
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
    body { margin: 0; background: #313338; font-family: 'DejaVu Sans', sans-serif; color: #dbdee1; }
    #message { padding: 14px 24px 18px 16px; display: flex; gap: 16px; width: 680px; box-sizing: border-box; }
    .avatar { width: 40px; height: 40px; border-radius: 50%; background: #3b6ea5; color: #fff; font-weight: bold; font-size: 14px; display: flex; align-items: center; justify-content: center; flex: none; margin-top: 22px; }
    .used { font-size: 13px; color: #949ba4; margin-bottom: 4px; }
    .used b { color: #dbdee1; font-weight: normal; }
    .name { font-weight: bold; color: #f2f3f5; font-size: 15px; }
    .badge { background: #5865f2; color: #fff; font-size: 10px; font-weight: bold; border-radius: 3px; padding: 1px 4px; margin: 0 4px; vertical-align: 2px; }
    .time { color: #949ba4; font-size: 12px; }
    .content { font-size: 15px; line-height: 1.4; margin-top: 2px; }
    .content strong, .description strong { color: #f2f3f5; }
    .subtext { font-size: 12px; color: #949ba4; }
    .embed { background: #2b2d31; border-left: 4px solid; border-radius: 4px; padding: 8px 16px 12px 12px; margin-top: 8px; max-width: 516px; }
    .author { font-size: 13px; font-weight: bold; color: #f2f3f5; margin-top: 4px; }
    .title { font-size: 15px; font-weight: bold; color: #00a8fc; margin-top: 6px; }
    .description { font-size: 13px; line-height: 1.4; margin-top: 6px; }
    .link { color: #00a8fc; }
    .footer { font-size: 11px; color: #b5bac1; margin-top: 8px; }
    .row { display: flex; gap: 8px; margin-top: 8px; }
    .select { background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px; color: #949ba4; font-size: 14px; padding: 9px 10px; width: 400px; display: flex; justify-content: space-between; }
    .button { background: #4e5058; color: #fff; font-size: 13px; border-radius: 3px; padding: 6px 14px; }
    .button.disabled { opacity: 0.5; }
  </style></head><body><div id="message">
    <div class="avatar">PS</div>
    <div>
      <div class="used"><b>ada</b> used <span class="link">${escapeHtml(command)}</span></div>
      <div><span class="name">Paper Scout</span><span class="badge">APP</span><span class="time">Today at 09:30</span></div>
      ${message.content ? `<div class="content">${lines(message.content)}</div>` : ''}
      ${embeds}
      ${rows}
    </div>
  </div></body></html>`;
}

await main();
