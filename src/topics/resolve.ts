/**
 * Forgiving topic lookup for what people type: `/topic llm`, "Deep Learning > LLMs",
 * "graph neural", "theory learning". Exact forms first (id, label, name, alias, in any case,
 * accents, punctuation, separator or word order), then word, prefix and fuzzy matching with
 * MiniSearch over names, aliases, descriptions and the strong phrases of each definition.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { msg } from '../i18n/index.js';
import { toSimplified } from '../i18n/simplify.js';
import type { TopicResolver } from '../search/filter.js';
import { tokenize } from '../text.js';
import { KEY_STOPWORDS, matchKey, singular, type Area, type Taxonomy, type Topic } from './taxonomy.js';

/** Input beyond this many characters is ignored (the longest label is 100). */
export const MAX_INPUT_LENGTH = 200;
/** At most this many words of the input are searched. */
export const MAX_INPUT_WORDS = 8;
/** Default and usual cap for autocomplete (Discord offers at most 25 choices). */
export const MAX_SUGGESTIONS = 25;
/** Suggestions offered when an input is ambiguous. */
export const AMBIGUOUS_SUGGESTIONS = 10;
/** The best fuzzy match wins outright when it scores this many times the runner-up. */
const CLEAR_WIN = 1.6;
/** Chinese (and other Han) text: its words are not separated by spaces, so parts of names match. */
const HAN = /\p{Script=Han}/u;

/** Either the one topic meant, or the best guesses (possibly none), best first. */
export type Resolution = { topic: Topic } | { suggestions: Topic[] };

/** Forgiving topic lookup ("llm", "causal") over a taxonomy: {@link resolveTopic} and {@link suggestTopics} bound to one. */
export interface TopicFinder {
  resolve(input: string): Resolution;
  suggest(prefix: string, limit: number): Topic[];
}

/**
 * The search engine's reading of a `topic:` filter through `topics`: a topic it knows, else
 * what to say (with up to three suggestions).
 * @example topicFilter(library.topics)('llm') // { id: 'deep-learning/large-language-models' }
 */
export function topicFilter(topics: TopicFinder): TopicResolver {
  return (name) => {
    const found = topics.resolve(name);
    if ('topic' in found) return { id: found.topic.id };
    const shown = name.slice(0, 60);
    const suggestions = found.suggestions.slice(0, 3).map((t) => msg('search.quoted', { text: t.labels }));
    return { error: suggestions.length > 0 ? msg('search.noTopicMaybe', { name: shown, suggestions: { items: suggestions, type: 'disjunction' } }) : msg('search.noTopicList', { name: shown }) };
  };
}

interface Doc {
  id: string;
  name: string;
  area: string;
  aliases: string;
  description: string;
  phrases: string;
}

interface Resolver {
  /** matchKey of ids, labels, names and aliases → topics. */
  exact: Map<string, Topic[]>;
  /** The same keys with their words sorted, so word order does not matter. */
  unordered: Map<string, Topic[]>;
  /** matchKey of area names and aliases → area. */
  areas: Map<string, Area>;
  /** matchKey of ids, labels, names and aliases (in every language), for prefix completion. */
  keys: Array<[string, Topic]>;
  /** Keys of names and aliases in Han script, for matching part of a name ("语言模型"). */
  hanKeys: Array<[string, Topic]>;
  /** matchKey of area names in Han script → area. */
  hanAreas: Array<[string, Area]>;
  search: MiniSearch<Doc>;
  byId: Map<string, Topic>;
}

const resolvers = new WeakMap<Taxonomy, Resolver>();

/**
 * Finds the topic a user means.
 * @example
 * resolveTopic(taxonomy, 'LLMs')            // { topic: Deep Learning · Large Language Models }
 * resolveTopic(taxonomy, 'theory learning') // { topic: Theory · Learning Theory }
 * resolveTopic(taxonomy, 'deep learning')   // { suggestions: [the Deep Learning topics] }
 * resolveTopic(taxonomy, 'qwzx blorf')      // { suggestions: [] }
 */
export function resolveTopic(taxonomy: Taxonomy, input: string): Resolution {
  const r = resolverFor(taxonomy);
  const key = matchKey(clip(input));
  if (key === '') return { suggestions: [] };

  const named = exactMatches(r, key);
  if (named.topics.length === 1 && named.areas.length === 0) return { topic: named.topics[0]! };
  if (named.topics.length > 0 || named.areas.length > 0) {
    return { suggestions: unique([...named.topics, ...named.areas.flatMap((a) => a.topics)]).slice(0, AMBIGUOUS_SUGGESTIONS) };
  }

  if (HAN.test(key)) {
    // Part of a Chinese name: "语言模型" is in "大语言模型". One topic decides; several are offered.
    const partial = hanMatches(r, key);
    if (partial.length === 1) return { topic: partial[0]! };
    if (partial.length > 1) return { suggestions: partial.slice(0, AMBIGUOUS_SUGGESTIONS) };
  }

  const strict = search(r, key, 'AND');
  if (strict.length === 1) return { topic: strict[0]!.topic };
  if (strict.length > 1) {
    if (strict[0]!.score >= CLEAR_WIN * strict[1]!.score) return { topic: strict[0]!.topic };
    return { suggestions: strict.slice(0, AMBIGUOUS_SUGGESTIONS).map((s) => s.topic) };
  }
  // No topic matches every word: offer the few that match some, never decide.
  return { suggestions: search(r, key, 'OR').slice(0, 5).map((s) => s.topic) };
}

/**
 * Topics for an autocomplete box, best first: exact names, then completions of what was typed,
 * then word, prefix and fuzzy matches. An empty prefix lists topics in taxonomy order.
 * @example suggestTopics(taxonomy, 'deep learning · la').map((t) => t.label) // ['Deep Learning · Large Language Models']
 */
export function suggestTopics(taxonomy: Taxonomy, prefix: string, limit: number = MAX_SUGGESTIONS): Topic[] {
  const n = Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : MAX_SUGGESTIONS;
  if (n === 0) return [];
  const r = resolverFor(taxonomy);
  const key = matchKey(clip(prefix));
  // The raw last word too: matchKey singularizes it ("class" → "clas"), which a prefix must not lose.
  const rawKey = tokenize(clip(prefix)).join(' ');
  if (key === '') return taxonomy.topics.slice(0, n);

  const named = exactMatches(r, key);
  const completions = r.keys.filter(([k]) => k.startsWith(key) || (rawKey !== '' && k.startsWith(rawKey))).map(([, t]) => t);
  const strict = search(r, key, 'AND');
  const found = [
    ...named.topics,
    ...named.areas.flatMap((a) => a.topics),
    ...completions.sort((a, b) => a.index - b.index),
    ...(HAN.test(key) ? hanMatches(r, key) : []),
    ...strict.map((s) => s.topic),
    // Topics matching only some of the words, when none matches them all.
    ...(strict.length === 0 ? search(r, key, 'OR').map((s) => s.topic) : []),
  ];
  return unique(found).slice(0, n);
}

/**
 * Topics grouped by area, in taxonomy order: what a "list topics" command shows.
 * @example topicsByArea(taxonomy)[0] // { area: 'Deep Learning', topics: [...] }
 */
export function topicsByArea(taxonomy: Taxonomy): Array<{ area: string; topics: readonly Topic[] }> {
  return taxonomy.areas.map((a) => ({ area: a.name, topics: a.topics }));
}

/** What was typed, cut to length, Traditional Chinese read as Simplified (大語言模型 is 大语言模型). */
function clip(input: string): string {
  return typeof input === 'string' ? toSimplified(input.slice(0, MAX_INPUT_LENGTH)) : '';
}

function exactMatches(r: Resolver, key: string): { topics: Topic[]; areas: Area[] } {
  const topics = r.exact.get(key) ?? r.unordered.get(sortWords(key)) ?? [];
  const area = r.areas.get(key);
  return { topics, areas: area ? [area] : [] };
}

/** Topics with a Han-script name or alias containing `key`, then the topics of areas whose name contains it. */
function hanMatches(r: Resolver, key: string): Topic[] {
  const topics = r.hanKeys.filter(([k]) => k.includes(key)).map(([, t]) => t);
  const areas = r.hanAreas.filter(([k]) => k.includes(key)).flatMap(([, a]) => a.topics);
  return unique([...topics.sort((a, b) => a.index - b.index), ...areas]);
}

function sortWords(key: string): string {
  return key.split(' ').sort().join(' ');
}

function unique(topics: Topic[]): Topic[] {
  return [...new Set(topics)];
}

interface Scored {
  topic: Topic;
  score: number;
}

function search(r: Resolver, key: string, combineWith: 'AND' | 'OR'): Scored[] {
  const query = key.split(' ').slice(0, MAX_INPUT_WORDS).join(' ');
  const results: SearchResult[] = r.search.search(query, {
    combineWith,
    prefix: (term) => term.length >= 2,
    fuzzy: (term) => (term.length >= 8 ? 2 : term.length >= 5 ? 1 : false),
    boost: { name: 4, aliases: 3, area: 1.5, description: 0.4, phrases: 0.6 },
  });
  const out: Scored[] = [];
  for (const res of results) {
    const topic = r.byId.get(String(res.id));
    if (topic) out.push({ topic, score: res.score });
  }
  // Deterministic order for equal scores.
  return out.sort((a, b) => b.score - a.score || a.topic.index - b.topic.index);
}

function resolverFor(taxonomy: Taxonomy): Resolver {
  let r = resolvers.get(taxonomy);
  if (!r) {
    r = buildResolver(taxonomy);
    resolvers.set(taxonomy, r);
  }
  return r;
}

function buildResolver(taxonomy: Taxonomy): Resolver {
  const exact = new Map<string, Topic[]>();
  const unordered = new Map<string, Topic[]>();
  const keys: Array<[string, Topic]> = [];
  const hanKeys: Array<[string, Topic]> = [];
  const add = (map: Map<string, Topic[]>, key: string, topic: Topic): void => {
    if (key === '') return;
    const list = map.get(key) ?? [];
    if (!list.includes(topic)) list.push(topic);
    map.set(key, list);
  };
  for (const topic of taxonomy.topics) {
    const forms = [topic.id, topic.label, topic.name, ...topic.aliases, ...Object.values(topic.names), ...Object.values(topic.labels)];
    for (const form of new Set(forms)) {
      const key = matchKey(form);
      add(exact, key, topic);
      add(unordered, sortWords(key), topic);
      keys.push([key, topic]);
      keys.push([tokenize(form).join(' '), topic]);
    }
    for (const form of [...topic.aliases, ...Object.values(topic.names)]) {
      const key = matchKey(form);
      if (HAN.test(key)) hanKeys.push([key, topic]);
    }
  }
  const areas = new Map<string, Area>();
  const hanAreas: Array<[string, Area]> = [];
  for (const area of taxonomy.areas) {
    for (const form of [area.name, ...area.aliases, ...Object.values(area.names)]) {
      const key = matchKey(form);
      areas.set(key, area);
      if (HAN.test(key)) hanAreas.push([key, area]);
    }
  }

  const search = new MiniSearch<Doc>({
    fields: ['name', 'area', 'aliases', 'description', 'phrases'],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => (KEY_STOPWORDS.has(term) ? null : singular(term)),
  });
  search.addAll(
    taxonomy.topics.map((t) => ({
      id: t.id,
      name: t.name,
      area: t.area,
      aliases: t.aliases.join(' ; '),
      description: t.description,
      phrases: t.definition.phrases.strong.join(' ; '),
    })),
  );
  return { exact, unordered, areas, keys, hanKeys, hanAreas, search, byId: new Map(taxonomy.topics.map((t) => [t.id, t])) };
}
