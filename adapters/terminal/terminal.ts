/**
 * The terminal adapter: reads commands as they would be typed in chat (`/paper diffusion`,
 * `/topic llm`, `/help`), one a line, from a terminal or a pipe, and prints the replies. The
 * buttons of the last reply become commands of their own (`/next`, `/prev`, `/open 2`).
 * It exits at the end of its input.
 */
import { createInterface } from 'node:readline';
import type { App } from '../../src/app.js';
import type { Messages } from '../../src/i18n/index.js';
import type { Reply } from '../../src/reply.js';
import { renderText } from './render.js';

export interface TerminalOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Show a prompt and use colours (an interactive terminal). */
  interactive: boolean;
  /** Where the search site is served, said when the terminal starts. */
  siteUrl?: string;
}

/**
 * The commands a reply's buttons and menu became: `/next` → action handle (named by the
 * button's language-independent id, so they are the same whatever language the reply is in), and
 * `/open N` for the item numbered N where the reply numbers its items (results 6–10 on page 2
 * are `/open 6` to `/open 10`), else for the Nth.
 */
export function replyCommands(reply: Reply): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of reply.buttons ?? []) {
    for (const button of row) {
      if (!button.action || button.disabled) continue;
      const word = button.id ?? button.label.toLowerCase().match(/[a-z]+/)?.[0];
      if (word && !out.has(`/${word}`)) out.set(`/${word}`, button.action);
    }
  }
  reply.menu?.choices.forEach((choice, i) => out.set(`/open ${choice.position ?? i + 1}`, choice.action));
  return out;
}

/**
 * Runs the read-eval-print loop until the input ends.
 * @example await runTerminal(app, { input: process.stdin, output: process.stdout, interactive: process.stdin.isTTY });
 */
export async function runTerminal(app: App, options: TerminalOptions): Promise<void> {
  const { output, interactive } = options;
  const style = { ansi: interactive && output.isTTY === true, width: Math.min(output.columns ?? 100, 120) };
  const lines = createInterface({ input: options.input, terminal: false });
  const ctx = app.context('terminal', { id: 'terminal', name: 'terminal' });
  let actions = new Map<string, string>();
  const prompt = () => {
    if (interactive) output.write('paperscout> ');
  };
  const print = (reply: Reply) => {
    actions = replyCommands(reply);
    output.write(renderText(reply, style, summarize(actions)));
  };

  if (interactive) output.write(`${ctx.i18n.t('terminal.welcome', { count: app.library.size, demo: app.demo ? 'yes' : 'no' })}\n`);
  if (interactive && options.siteUrl) output.write(`${ctx.i18n.t('terminal.site', { url: options.siteUrl })}\n`);
  prompt();
  for await (const raw of lines) {
    const line = raw.trim();
    if (line === '') {
      prompt();
      continue;
    }
    const match = /^\/(\S+)\s*(.*)$/s.exec(line);
    const typed = line.toLowerCase().replace(/\s+/g, ' ').replace(/^\/open 0*(?=\d)/, '/open ');
    const known = actions.get(typed);
    if (known) print(await app.registry.act(ctx, known));
    else if (!match) output.write(`${ctx.i18n.t('terminal.needsSlash')}\n`);
    else if (/^(open|next|prev|back|more)$/i.test(match[1]!)) output.write(`${notAvailable(ctx.i18n, typed, actions)}\n`);
    else print(await app.registry.runText(ctx, match[1]!.toLowerCase(), match[2]!));
    prompt();
  }
  if (interactive) output.write('\n');
}

/**
 * The hint under a reply: its button commands, then the numbers `/open` takes, as printed beside
 * the results (`/open 6-10` on page 2).
 */
function summarize(actions: Map<string, string>): string[] {
  const keys = [...actions.keys()];
  const others = keys.filter((k) => !k.startsWith('/open '));
  const range = openRange(actions);
  if (range) others.push(`/open ${range}`);
  return others;
}

/** The numbers `/open` takes after the last reply: `6-10`, `3`, or `1, 4`; undefined for none. */
function openRange(actions: Map<string, string>): string | undefined {
  const numbers = [...actions.keys()].filter((k) => k.startsWith('/open ')).map((k) => Number(k.slice(6))).sort((a, b) => a - b);
  if (numbers.length === 0) return undefined;
  const first = numbers[0]!;
  const last = numbers[numbers.length - 1]!;
  if (numbers.length === 1) return String(first);
  return last - first === numbers.length - 1 ? `${first}-${last}` : numbers.join(', ');
}

/** Why a paging command does nothing now, and what would. */
function notAvailable(m: Messages, typed: string, actions: Map<string, string>): string {
  if (actions.size === 0) return m.t('terminal.nothingToPage');
  const range = openRange(actions);
  const number = /^\/open (\d+)$/.exec(typed)?.[1];
  if (number !== undefined && range) return m.t('terminal.noSuchNumber', { number, range: `/open ${range}` });
  return m.t('terminal.notNow', { command: typed, commands: summarize(actions).join('   ') });
}
