/**
 * The catalogs: every language has every key, with the same arguments, and every message
 * compiles and formats; the registry's commands find their words in them.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { commandDescription, commandExamples, COMMANDS, optionSpecs } from '../../src/commands/registry.js';
import { en } from '../../src/i18n/catalog/en.js';
import { zhCN } from '../../src/i18n/catalog/zh-CN.js';
import { LOCALES, messages, type MessageKey } from '../../src/i18n/index.js';

const CATALOGS: Record<string, Record<string, string>> = { en, 'zh-CN': zhCN };

/** The arguments a message takes, with their kind (`plural`, `select`, `number`, text). */
function argumentsOf(message: string): string[] {
  const out = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.argument) out.add(`${e.value}`);
      else if (e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) out.add(`${e.value}:${TYPE[e.type]}`);
      else if (e.type === TYPE.plural || e.type === TYPE.select) {
        out.add(`${e.value}:${TYPE[e.type]}`);
        for (const option of Object.values(e.options)) walk(option.value);
      }
    }
  };
  walk(parse(message, { ignoreTag: true }));
  return [...out].sort();
}

describe('message catalogs', () => {
  it('has a catalog for every locale, with exactly the English keys', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LOCALES].sort());
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      const missing = Object.keys(en).filter((k) => !(k in catalog));
      const extra = Object.keys(catalog).filter((k) => !(k in en));
      expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
    }
  });

  it('fails on a key missing in a language (the check above is not vacuous)', () => {
    const broken: Record<string, string> = { ...zhCN };
    delete broken['paper.heading'];
    expect(Object.keys(en).filter((k) => !(k in broken))).toEqual(['paper.heading']);
  });

  it('gives every message the same arguments in every language, and every message compiles', () => {
    for (const key of Object.keys(en) as MessageKey[]) {
      const expected = argumentsOf(en[key]);
      for (const [locale, catalog] of Object.entries(CATALOGS)) {
        expect(argumentsOf(catalog[key]!), `${locale} ${key}`).toEqual(expected);
      }
    }
  });

  it('formats every message in every language with sample values', () => {
    for (const locale of LOCALES) {
      const m = messages(locale);
      for (const key of Object.keys(en) as MessageKey[]) {
        const values = Object.fromEntries(argumentsOf(en[key]).map((a) => [a.split(':')[0]!, a.endsWith(':select') ? 'yes' : a.includes(':') ? 2 : 'x']));
        const text = m.t(key, values);
        expect(typeof text, `${locale} ${key}`).toBe('string');
        expect(text, `${locale} ${key}`).not.toMatch(/\{\w+[,}]/);
      }
    }
  });

  it('has Chinese prose in the Chinese catalog (not English left untranslated)', () => {
    const untranslated = (Object.keys(en) as MessageKey[]).filter((k) => zhCN[k] === en[k] && /[a-z]{4,} [a-z]{4,}/i.test(en[k].replace(/\{[^}]*\}|\/\w+|\w+:\S*|https?:\S+/g, '')));
    expect(untranslated).toEqual(['help.syntax.words.example']);
  });

  it('describes every command, subcommand and option in every language, within Discord’s 100 characters', () => {
    for (const locale of LOCALES) {
      const m = messages(locale);
      for (const command of COMMANDS) {
        expect(commandDescription(command, m).length, `${locale} /${command.name}`).toBeLessThanOrEqual(100);
        expect(commandExamples(command, m)).toContain(`/${command.name}`);
        for (const o of optionSpecs(command, m)) expect(o.description.length).toBeGreaterThan(0);
        for (const sub of command.subcommands ?? []) {
          expect(commandDescription(command, m, sub).length).toBeLessThanOrEqual(100);
          for (const o of optionSpecs(command, m, sub)) expect(o.description.length, `${locale} ${sub.name} ${o.name}`).toBeGreaterThan(0);
        }
      }
    }
  });
});
