/**
 * Reads options typed as text, as Slack and the terminal deliver them:
 * `topic:"Deep Learning · LLMs" time:8:30 timezone:Europe/Paris` → { topic, time, timezone }.
 * Words that are not `name:value` go to the first option.
 */
import { UserError } from '../errors.js';

/**
 * @example parseOptionText('llm time:08:00', ['topic', 'time']) // { topic: 'llm', time: '08:00' }
 */
export function parseOptionText(text: string, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const loose: string[] = [];
  const pattern = /(?:([A-Za-z]+):)?(?:"([^"]*)"?|(\S+))/g;
  for (const m of text.matchAll(pattern)) {
    const [, key, quoted, bare] = m;
    const value = quoted ?? bare ?? '';
    if (key === undefined) {
      loose.push(value);
      continue;
    }
    const name = key.toLowerCase();
    if (!names.includes(name)) {
      throw new UserError(`"${key}:" is not an option here. Options: ${names.map((n) => `${n}:`).join(' ')}`);
    }
    out[name] = value;
  }
  if (loose.length > 0 && names[0] !== undefined) {
    out[names[0]] = [out[names[0]], ...loose].filter(Boolean).join(' ');
  }
  return out;
}
