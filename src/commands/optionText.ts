/**
 * Reads options typed as text, as Slack and the terminal deliver them:
 * `topic:"Deep Learning · LLMs" time:8:30 timezone:Europe/Paris` → { topic, time, timezone }.
 * Everything that is not `option:value` for one of the options goes to the first option.
 */

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
      // Not an option: part of the free text (a search's own `author:` or `year:`, a link).
      loose.push(m[0]);
      continue;
    }
    out[name] = value;
  }
  if (loose.length > 0 && names[0] !== undefined) {
    out[names[0]] = [out[names[0]], ...loose].filter(Boolean).join(' ');
  }
  return out;
}
