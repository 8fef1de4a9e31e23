/**
 * Author names as reference managers want them: family and given name apart where that can be
 * done safely, the whole name as one literal otherwise (an organisation, a name in Han or
 * Hangul script, a single word, anything with characters a person's name does not have).
 *
 * Papers give names as people write them ("Ashish Vaswani", "Aidan N. Gomez", "Guido van
 * Rossum"); the family name is taken to be the last word, with lowercase particles before it
 * ("van", "de", "von der") and a generational suffix after it ("Jr.", "III"). A name is never
 * guessed apart when a wrong guess would mislead a bibliography: such names stay literal.
 */

/** A person's name in parts, or a name that is only ever written whole. */
export type PersonName =
  | { family: string; given: string; particle?: string; suffix?: string }
  | { literal: string };

/** Letters, combining marks, spaces, hyphens, apostrophes and periods: all a personal name needs. */
const PERSONAL_CHARACTERS = /^[\p{L}\p{M} .'’\-‐]+$/u;
/** Scripts whose names are not written given-then-family with spaces. */
const UNSPLITTABLE_SCRIPT = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const ORGANISATION = new RegExp(
  '\\b(team|group|consortium|collaboration|labs?|laboratory|inc|ltd|llc|corp|corporation|company|institute|' +
    'university|foundation|society|association|committee|council|project|initiative|research|deepmind|openai|' +
    'alliance|centre|center|department|network|organi[sz]ation|agency|academy|authors|contributors)\\b',
  'i',
);
const SUFFIX = /^(jr\.?|sr\.?|ii|iii|iv)$/i;
/** Words BibTeX reads as separators in an author list: never left bare in a name. */
const LIST_WORD = /^(and|others)$/i;
const PARTICLES: ReadonlySet<string> = new Set(
  'van von der den de del della dei degli di da das dos du la le les ter ten zu zur af av'.split(' '),
);

/**
 * The parts of a name (whitespace already collapsed), or the name as a literal when it cannot
 * be split safely.
 * @example splitName('Aidan N. Gomez') // { family: 'Gomez', given: 'Aidan N.' }
 * @example splitName('Guido van Rossum') // { family: 'Rossum', given: 'Guido', particle: 'van' }
 * @example splitName('Martin Luther King Jr.') // { family: 'King', given: 'Martin Luther', suffix: 'Jr.' }
 * @example splitName('Google DeepMind') // { literal: 'Google DeepMind' }
 * @example splitName('张三') // { literal: '张三' }
 */
export function splitName(name: string): PersonName {
  const comma = name.indexOf(',');
  if (comma >= 0) return splitInverted(name, comma);
  if (!PERSONAL_CHARACTERS.test(name) || UNSPLITTABLE_SCRIPT.test(name) || ORGANISATION.test(name)) {
    return { literal: name };
  }
  const words = name.split(' ');
  if (words.length < 2 || !words.every(isNameWord)) return { literal: name };
  const suffix = words.length >= 3 && SUFFIX.test(words.at(-1)!) ? words.pop() : undefined;
  const family = words.pop()!;
  const particles: string[] = [];
  while (words.length > 1 && PARTICLES.has(words.at(-1)!)) particles.unshift(words.pop()!);
  const given = words.join(' ');
  return {
    family,
    given,
    ...(particles.length > 0 && { particle: particles.join(' ') }),
    ...(suffix !== undefined && { suffix }),
  };
}

/** "Vaswani, Ashish": split at its one comma when both sides are plain names. */
function splitInverted(name: string, comma: number): PersonName {
  const family = name.slice(0, comma).trim();
  const given = name.slice(comma + 1).trim();
  const plain = (part: string): boolean =>
    part !== '' && PERSONAL_CHARACTERS.test(part) && !UNSPLITTABLE_SCRIPT.test(part) && part.split(' ').every(isNameWord);
  if (!plain(family) || !plain(given) || ORGANISATION.test(name)) return { literal: name };
  return { family, given };
}

/** A word with a letter in it that BibTeX would not read as a list separator. */
function isNameWord(word: string): boolean {
  return /\p{L}/u.test(word) && !LIST_WORD.test(word);
}

/**
 * A name as one line of plain text, family first: "Vaswani, Ashish", "van Rossum, Guido",
 * "King, Martin Luther, Jr."; a literal as it is. RIS writes authors this way.
 * @example invertedName({ family: 'Rossum', given: 'Guido', particle: 'van' }) // 'van Rossum, Guido'
 */
export function invertedName(name: PersonName): string {
  if ('literal' in name) return name.literal;
  const family = name.particle ? `${name.particle} ${name.family}` : name.family;
  return [family, name.given, name.suffix].filter((part) => part !== undefined).join(', ');
}
