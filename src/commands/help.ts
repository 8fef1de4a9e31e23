/**
 * /help: what the bot does and the search syntax, generated from the command registry, in the
 * member's language.
 */
import { z } from 'zod';
import { isMessageKey, type MessageKey, type Messages } from '../i18n/index.js';
import type { Block, Button } from '../reply.js';
import { defineCommand, type Command } from './types.js';

const options = z.object({});

/** The search syntax, one example a line: what to type and what it does (catalog keys). */
export const SYNTAX_HELP: ReadonlyArray<[MessageKey, MessageKey]> = [
  ['help.syntax.words.example', 'help.syntax.words'],
  ['help.syntax.phrase.example', 'help.syntax.phrase'],
  ['help.syntax.author.example', 'help.syntax.author'],
  ['help.syntax.venue.example', 'help.syntax.venue'],
  ['help.syntax.topic.example', 'help.syntax.topic'],
  ['help.syntax.sort.example', 'help.syntax.sort'],
  ['help.syntax.link.example', 'help.syntax.link'],
  ['help.syntax.like.example', 'help.syntax.like'],
  ['help.syntax.chinese.example', 'help.syntax.chinese'],
];

/** Builds /help over the given commands (the registry passes itself in, with how it describes them). */
export function createHelpCommand(
  list: () => readonly Command[],
  describe: (command: Command, m: Messages) => { description: string; examples: string },
): Command {
  return defineCommand({
    name: 'help',
    options,
    fromText: () => ({}),
    run(ctx) {
      const m = ctx.i18n;
      const commands = list();
      const blocks: Block[] = [
        { kind: 'heading', text: m.t('help.heading') },
        {
          kind: 'list',
          heading: m.t('help.commands'),
          items: commands.map((c) => {
            const { description, examples } = describe(c, m);
            return { text: m.t('help.command', { name: c.name, description }), detail: examples };
          }),
        },
        { kind: 'list', heading: m.t('help.syntax'), items: SYNTAX_HELP.map(([example, what]) => ({ text: m.t(example), detail: m.t(what) })) },
      ];
      // Where the platform has dialogs, a button opens each command's box for a long text.
      const forms = commands.flatMap((c): Button[] => {
        const label = `${c.name}.form.button`;
        return c.form && isMessageKey(label) ? [{ label: m.t(label), form: c.name }] : [];
      });
      return {
        fallback: m.t('help.fallback', { commands: commands.map((c) => `/${c.name}`).join(', ') }),
        blocks,
        ...(forms.length > 0 && { buttons: [forms] }),
        ephemeral: true,
      };
    },
  });
}
