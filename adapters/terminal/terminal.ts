/**
 * The terminal adapter: reads commands as they would be typed in chat (`/paper diffusion`,
 * `/topic llm`, `/library mine`, `/help`), one a line, from a terminal or a pipe, and prints the
 * replies. The buttons of the last reply become commands of their own (`/next`, `/prev`,
 * `/open 2`, and a card's Save `/save 2`). A reply's file (an export) is written to the
 * working directory. It exits at the end of its input. A line longer than {@link MAX_LINE_BYTES}
 * is answered with one line saying so, and reading goes on (see lines.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '../../src/app.js';
import type { Messages } from '../../src/i18n/index.js';
import type { Button, Reply } from '../../src/reply.js';
import { LINE_TOO_LONG, MAX_LINE_BYTES, readLines } from './lines.js';
import { renderText } from './render.js';

export interface TerminalOptions {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Show a prompt and use colours (an interactive terminal). */
  interactive: boolean;
  /** Where the search site is served, said when the terminal starts. */
  siteUrl?: string;
  /** Where a reply's file (an export) is written; the working directory unless given. */
  directory?: string;
}

/** Commands that act on the last reply: typed when it has none, they say what would work instead. */
const REPLY_COMMANDS = /^(open|next|prev|back|more|save)$/i;

/**
 * The commands a reply's buttons and menu became: `/next` → action handle (named by the
 * button's language-independent id, so they are the same whatever language the reply is in),
 * `/open N` for the item numbered N where the reply numbers its items (results 6–10 on page 2
 * are `/open 6` to `/open 10`), else for the Nth; a numbered card's own buttons the same way
 * (`/save 6` saves result 6).
 */
export function replyCommands(reply: Reply): Map<string, string> {
  const out = new Map<string, string>();
  for (const row of reply.buttons ?? []) {
    for (const button of row) {
      const word = wordOf(button);
      if (word && button.action && !out.has(`/${word}`)) out.set(`/${word}`, button.action);
    }
  }
  reply.menu?.choices.forEach((choice, i) => out.set(`/open ${choice.position ?? i + 1}`, choice.action));
  for (const block of reply.blocks) {
    if (block.kind !== 'paper' || block.paper.position === undefined) continue;
    for (const button of block.paper.actions ?? []) {
      const word = wordOf(button);
      if (word && button.action) out.set(`/${word} ${block.paper.position}`, button.action);
    }
  }
  return out;
}

/** The command word of a button that can be pressed here (undefined: disabled, or a link). */
function wordOf(button: Button): string | undefined {
  if (!button.action || button.disabled) return undefined;
  return button.id ?? button.label.toLowerCase().match(/[a-z]+/)?.[0];
}

/**
 * Runs the read-eval-print loop until the input ends.
 * @example await runTerminal(app, { input: process.stdin, output: process.stdout, interactive: process.stdin.isTTY });
 */
export async function runTerminal(app: App, options: TerminalOptions): Promise<void> {
  const { output, interactive } = options;
  const style = { ansi: interactive && output.isTTY === true, width: Math.min(output.columns ?? 100, 120) };
  const lines = readLines(options.input);
  const ctx = app.context('terminal', { id: 'terminal', name: 'terminal' });
  let actions = new Map<string, string>();
  const prompt = () => {
    if (interactive) output.write('paperscout> ');
  };
  /** `pressed`: the reply to one of the last reply's commands, whose commands stay if it has none (Save's confirmation). */
  const print = async (reply: Reply, pressed = false) => {
    const commands = replyCommands(reply);
    if (!pressed || commands.size > 0) actions = commands;
    output.write(renderText(reply, style, summarize(commands)));
    if (reply.file) output.write(`${await saveFile(reply.file, options.directory ?? process.cwd(), ctx.i18n)}\n`);
  };

  if (interactive) output.write(`${ctx.i18n.t('terminal.welcome', { count: app.library.size, demo: app.demo ? 'yes' : 'no' })}\n`);
  if (interactive && options.siteUrl) output.write(`${ctx.i18n.t('terminal.site', { url: options.siteUrl })}\n`);
  prompt();
  for await (const raw of lines) {
    if (raw === LINE_TOO_LONG) {
      output.write(`${ctx.i18n.t('terminal.lineTooLong', { max: MAX_LINE_BYTES / 1024 })}\n`);
      prompt();
      continue;
    }
    const line = raw.trim();
    if (line === '') {
      prompt();
      continue;
    }
    const match = /^\/(\S+)\s*(.*)$/s.exec(line);
    const typed = line.toLowerCase().replace(/\s+/g, ' ').replace(/^(\/[a-z-]+) 0*(?=\d)/, '$1 ');
    const known = actions.get(typed);
    if (known) await print(await app.registry.act(ctx, known), true);
    else if (!match) output.write(`${ctx.i18n.t('terminal.needsSlash')}\n`);
    else if (REPLY_COMMANDS.test(match[1]!)) output.write(`${notAvailable(ctx.i18n, typed, actions)}\n`);
    else await print(await app.registry.runText(ctx, match[1]!.toLowerCase(), match[2]!));
    prompt();
  }
  if (interactive) output.write('\n');
}

/**
 * The hint under a reply: its button commands, then the numbers `/open` takes, as printed beside
 * the results (`/open 6-10` on page 2), then the numbers of the cards' own commands (`/save 6-10`).
 */
function summarize(actions: Map<string, string>): string[] {
  const keys = [...actions.keys()];
  const others = keys.filter((k) => !/ \d+$/.test(k));
  const numbered = [...new Set(keys.filter((k) => / \d+$/.test(k)).map((k) => k.split(' ')[0]!))];
  numbered.sort((a, b) => Number(b === '/open') - Number(a === '/open'));
  for (const command of numbered) others.push(`${command} ${rangeOf(actions, command)}`);
  return others;
}

/** The numbers `command` (`/open`, `/save`) takes after the last reply: `6-10`, `3`, or `1, 4`; undefined for none. */
function rangeOf(actions: Map<string, string>, command: string): string | undefined {
  const numbers = [...actions.keys()].filter((k) => k.startsWith(`${command} `)).map((k) => Number(k.slice(command.length + 1))).sort((a, b) => a - b);
  if (numbers.length === 0) return undefined;
  const first = numbers[0]!;
  const last = numbers[numbers.length - 1]!;
  if (numbers.length === 1) return String(first);
  return last - first === numbers.length - 1 ? `${first}-${last}` : numbers.join(', ');
}

/** Why a command on the last reply does nothing now, and what would. */
function notAvailable(m: Messages, typed: string, actions: Map<string, string>): string {
  if (actions.size === 0) return m.t('terminal.nothingToPage');
  const [, command, number] = /^(\/open|\/save) (\d+)$/.exec(typed) ?? [];
  const range = command && rangeOf(actions, command);
  if (number !== undefined && range) return m.t(command === '/open' ? 'terminal.noSuchNumber' : 'terminal.noSuchCard', { number, range: `${command} ${range}` });
  return m.t('terminal.notNow', { command: typed, commands: summarize(actions).join('   ') });
}

/** Writes a reply's file into `directory`; the line that says where, or why not. */
async function saveFile(file: NonNullable<Reply['file']>, directory: string, m: Messages): Promise<string> {
  // The name is the core's own (letters, digits, `-`, `_`, `.`): never a path elsewhere.
  const path = join(directory, file.name.replace(/[^\w.-]/g, '_'));
  try {
    await writeFile(path, file.content, 'utf8');
    return m.t('terminal.fileWritten', { path });
  } catch (err) {
    return m.t('terminal.fileNotWritten', { path, reason: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
}
