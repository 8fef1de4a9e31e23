/**
 * Paper → topics. Runs at ingest over every paper, so it is compiled once and then pure and
 * cheap: each text field is tokenized once and scanned against a phrase trie.
 *
 * Scoring (see the `$comment` of seeds/topics.json for the data side):
 * - a strong phrase in the title or the keywords scores {@link TITLE_POINTS}·2 = 4, a weak one 2;
 * - in the abstract the first mention of a topic scores 2 (weak 1) and each further mention half
 *   that; mentions that touch ("large language models (LLMs)") count once; the abstract's total
 *   is capped at 6, or at 2 when only weak phrases matched, so weak words never decide alone;
 * - a strong label scores 4, a weak one 1;
 * - an area whose own evidence reaches the threshold adds {@link AREA_BONUS} to each of its
 *   topics that has any evidence, and, when the paper gets no topic at all, contributes its
 *   fallback topic ("Everything Else");
 * - a topic needs at least one strong piece of evidence (a strong phrase, keyword or label):
 *   weak phrases add points but never decide;
 * - topics scoring at least {@link THRESHOLD} and at least {@link RELATIVE_CUT} of the best one
 *   are returned, best first, at most `maxTopics`; an area's "Everything Else" topic is left out
 *   when another topic of the same area made the list.
 */
import type { PaperRecord } from '../papers/model.js';
import { compilePhrases, scanPhrases, type Hit, type PhraseEntry, type PhraseTrie } from './phrases.js';
import { normalizeLabel, type Definition, type Taxonomy } from './taxonomy.js';

/** Points a topic needs to be assigned. */
export const THRESHOLD = 4;
/** Multiplier for a phrase found in the title or a keyword. */
export const TITLE_POINTS = 2;
/** Added to a topic with some evidence when its area's own evidence passes the threshold. */
export const AREA_BONUS = 1;
/** Default most topics per paper. */
export const MAX_TOPICS = 3;
/** A topic scoring below this share of the paper's best topic is dropped. */
export const RELATIVE_CUT = 0.4;

const STRONG = 2;
const WEAK = 1;
const STRONG_LABEL = 4;
const WEAK_LABEL = 1;
const ABSTRACT_CAP = 6;
const ABSTRACT_WEAK_CAP = 2;
const FIELD_CAP = 8;

/** The parts of a paper the classifier reads. */
export type ClassifiablePaper = Pick<PaperRecord, 'title' | 'abstract' | 'keywords' | 'labels'>;

export interface ClassifierOptions {
  /** Most topics returned per paper (default {@link MAX_TOPICS}). */
  maxTopics?: number;
}

/** One topic's score for a paper, as {@link createTopicScorer} reports it. */
export interface TopicScore {
  readonly id: string;
  readonly score: number;
  /** True when assigned only because its area passed and nothing else did. */
  readonly fallback: boolean;
}

/** Classifies a paper into topic ids, best first. */
export type Classifier = (paper: ClassifiablePaper) => string[];

/**
 * Compiles the taxonomy into a classifier.
 * @example
 * const classify = createClassifier(loadTaxonomy());
 * classify({ title: 'Scaling Large Language Models', abstract: '', keywords: [], labels: [] })
 * // ['deep-learning/large-language-models']
 */
export function createClassifier(taxonomy: Taxonomy, options: ClassifierOptions = {}): Classifier {
  const score = createTopicScorer(taxonomy, options);
  return (paper) => score(paper).map((s) => s.id);
}

/**
 * Like {@link createClassifier} but reports scores, for benchmarks and for explaining a result.
 * @example createTopicScorer(taxonomy)(paper) // [{ id: 'theory/learning-theory', score: 9, fallback: false }]
 */
export function createTopicScorer(
  taxonomy: Taxonomy,
  options: ClassifierOptions = {},
): (paper: ClassifiablePaper) => TopicScore[] {
  const maxTopics = Math.max(0, Math.floor(options.maxTopics ?? MAX_TOPICS));
  const compiled = compile(taxonomy);
  const { textTrie, keywordTrie, labels, labelPrefixes, topicArea, areaFallback, isFallback, ids } = compiled;
  const nTopics = ids.length;
  const n = compiled.targets;

  // Scratch space reused across papers; `touched` lists the targets to reset.
  const title = new Float64Array(n);
  const keyword = new Float64Array(n);
  const label = new Float64Array(n);
  const absMax = new Float64Array(n);
  const absSum = new Float64Array(n);
  const absLastEnd = new Int32Array(n).fill(-2);
  const absLastWeight = new Float64Array(n);
  const absStrong = new Uint8Array(n);
  const anyStrong = new Uint8Array(n);
  const isTouched = new Uint8Array(n);
  const touched: number[] = [];
  const touch = (t: number): void => {
    if (isTouched[t] === 0) {
      isTouched[t] = 1;
      touched.push(t);
    }
  };

  const titleSink = (_s: number, _e: number, hits: readonly Hit[]): void => {
    for (let k = 0; k < hits.length; k++) {
      const h = hits[k]!;
      touch(h.target);
      if (h.weight >= STRONG) anyStrong[h.target] = 1;
      title[h.target] = Math.min(FIELD_CAP, title[h.target]! + TITLE_POINTS * h.weight);
    }
  };
  const keywordSink = (_s: number, _e: number, hits: readonly Hit[]): void => {
    for (let k = 0; k < hits.length; k++) {
      const h = hits[k]!;
      touch(h.target);
      if (h.weight >= STRONG) anyStrong[h.target] = 1;
      keyword[h.target] = Math.min(FIELD_CAP, keyword[h.target]! + TITLE_POINTS * h.weight);
    }
  };
  const abstractSink = (start: number, end: number, hits: readonly Hit[]): void => {
    for (let k = 0; k < hits.length; k++) {
      const t = hits[k]!.target;
      const w = hits[k]!.weight;
      touch(t);
      if (w >= STRONG) absStrong[t] = anyStrong[t] = 1;
      if (start === absLastEnd[t]) {
        // Touches the previous mention ("large language models (LLMs)"): one mention.
        if (w > absLastWeight[t]!) {
          absSum[t] = absSum[t]! + w - absLastWeight[t]!;
          absLastWeight[t] = w;
          if (w > absMax[t]!) absMax[t] = w;
        }
      } else {
        absSum[t] = absSum[t]! + w;
        absLastWeight[t] = w;
        if (w > absMax[t]!) absMax[t] = w;
      }
      absLastEnd[t] = end;
    }
  };
  const addLabelHits = (hits: readonly Hit[] | undefined): void => {
    if (!hits) return;
    for (const h of hits) {
      touch(h.target);
      if (h.weight >= STRONG) anyStrong[h.target] = 1;
      label[h.target] = Math.min(FIELD_CAP, label[h.target]! + (h.weight >= STRONG ? STRONG_LABEL : WEAK_LABEL));
    }
  };

  /** Points of a target; 0 without any strong evidence, since weak phrases only support. */
  const total = (t: number): number => {
    if (anyStrong[t] === 0) return 0;
    const max = absMax[t]!;
    const abs = Math.min(absStrong[t] ? ABSTRACT_CAP : ABSTRACT_WEAK_CAP, max + (absSum[t]! - max) / 2);
    return title[t]! + keyword[t]! + label[t]! + abs;
  };

  return (paper) => {
    scanPhrases(textTrie, paper.title ?? '', titleSink);
    if (paper.abstract) scanPhrases(textTrie, paper.abstract, abstractSink);
    for (const kw of paper.keywords ?? []) scanPhrases(keywordTrie, kw, keywordSink);
    for (const raw of paper.labels ?? []) {
      const key = normalizeLabel(raw);
      addLabelHits(labels.get(key));
      const dot = key.indexOf('.');
      if (dot > 0) addLabelHits(labelPrefixes.get(key.slice(0, dot + 1)));
    }

    const areaActive: boolean[] = [];
    for (const t of touched) if (t >= nTopics && total(t) >= THRESHOLD) areaActive[t - nTopics] = true;

    const results: Array<{ t: number; score: number; fallback: boolean }> = [];
    for (const t of touched) {
      if (t >= nTopics) continue;
      let s = total(t);
      if (s > 0 && areaActive[topicArea[t]!]) s += AREA_BONUS;
      if (s >= THRESHOLD) results.push({ t, score: s, fallback: false });
    }
    if (results.length === 0) {
      for (const t of touched) {
        if (t < nTopics) continue;
        const fb = areaFallback[t - nTopics]!;
        if (fb >= 0 && areaActive[t - nTopics]) results.push({ t: fb, score: total(t), fallback: true });
      }
    }

    for (const t of touched) {
      title[t] = keyword[t] = label[t] = absMax[t] = absSum[t] = absLastWeight[t] = 0;
      absLastEnd[t] = -2;
      absStrong[t] = anyStrong[t] = isTouched[t] = 0;
    }
    touched.length = 0;

    results.sort((a, b) => b.score - a.score || a.t - b.t);
    const cut = (results[0]?.score ?? 0) * RELATIVE_CUT;
    const out: TopicScore[] = [];
    for (const r of results) {
      if (out.length >= maxTopics) break;
      if (r.score < cut) break;
      // "Everything Else" means nothing else in its area fits.
      if (isFallback[r.t] === 1 && !r.fallback && results.some((o) => o !== r && o.score >= cut && topicArea[o.t] === topicArea[r.t])) continue;
      out.push({ id: ids[r.t]!, score: r.score, fallback: r.fallback });
    }
    return out;
  };
}

interface Compiled {
  textTrie: PhraseTrie;
  keywordTrie: PhraseTrie;
  /** Normalized label → hits; `labelPrefixes` holds `q-bio.*` style patterns by prefix (`q-bio.`). */
  labels: Map<string, Hit[]>;
  labelPrefixes: Map<string, Hit[]>;
  /** Area number of each topic. */
  topicArea: Int32Array;
  /** Fallback topic number of each area, -1 for none. */
  areaFallback: Int32Array;
  /** 1 for topics that are their area's fallback. */
  isFallback: Uint8Array;
  ids: string[];
  /** Topics then areas: target `t < ids.length` is a topic, otherwise area `t - ids.length`. */
  targets: number;
}

function compile(taxonomy: Taxonomy): Compiled {
  const ids = taxonomy.topics.map((t) => t.id);
  const nTopics = ids.length;
  const areaIndex = new Map(taxonomy.areas.map((a, i) => [a.name, i]));
  const definitions: Array<[number, Definition]> = [
    ...taxonomy.topics.map((t, i): [number, Definition] => [i, t.definition]),
    ...taxonomy.areas.map((a, i): [number, Definition] => [nTopics + i, a.definition]),
  ];

  const text: PhraseEntry[] = [];
  const keywordOnly: PhraseEntry[] = [];
  const labels = new Map<string, Hit[]>();
  const labelPrefixes = new Map<string, Hit[]>();
  const addLabel = (raw: string, target: number, weight: number): void => {
    const key = normalizeLabel(raw);
    const map = key.endsWith('.*') ? labelPrefixes : labels;
    const k = key.endsWith('.*') ? key.slice(0, -1) : key;
    const list = map.get(k) ?? [];
    const i = list.findIndex((h) => h.target === target);
    if (i < 0) list.push({ target, weight });
    else if (list[i]!.weight < weight) list[i] = { target, weight };
    map.set(k, list);
  };

  for (const [target, def] of definitions) {
    for (const phrase of def.phrases.strong) text.push({ phrase, target, weight: STRONG });
    for (const phrase of def.phrases.weak) text.push({ phrase, target, weight: WEAK });
    for (const phrase of def.keywords.strong) keywordOnly.push({ phrase, target, weight: STRONG });
    for (const phrase of def.keywords.weak) keywordOnly.push({ phrase, target, weight: WEAK });
    for (const l of def.labels.strong) addLabel(l, target, STRONG);
    for (const l of def.labels.weak) addLabel(l, target, WEAK);
  }

  return {
    textTrie: compilePhrases(text, taxonomy.ignore),
    keywordTrie: compilePhrases([...text, ...keywordOnly], taxonomy.ignore),
    labels,
    labelPrefixes,
    topicArea: Int32Array.from(taxonomy.topics, (t) => areaIndex.get(t.area) ?? -1),
    areaFallback: Int32Array.from(taxonomy.areas, (a) => (a.fallback ? a.fallback.index : -1)),
    isFallback: Uint8Array.from(taxonomy.topics, (t) => (t.isFallback ? 1 : 0)),
    ids,
    targets: nTopics + taxonomy.areas.length,
  };
}
