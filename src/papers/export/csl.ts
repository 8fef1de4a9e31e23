/**
 * CSL-JSON, the input of citeproc (Zotero, Mendeley, pandoc): an array of items valid against
 * the CSL data schema (`csl-data.json`, v1.0.2). The item id is the paper's citation key, the
 * same as in the BibTeX export, so `[@vaswani2017attention]` works with either file.
 *
 * Types: `paper-conference` (container-title: the proceedings), `article-journal`
 * (container-title: the journal), `article` for a preprint (publisher "arXiv", number
 * "arXiv:<id>", as Zotero describes preprints) and for a submission that was not accepted
 * (genre: "Withdrawn submission to ICLR 2024", status: "withdrawn"). Names are
 * `{family, given}` with particle and suffix apart, or `{literal}`. Text is plain: JSON needs
 * no escaping beyond its own, which `JSON.stringify` does.
 */
import { citationKeys, describeAll, type Citable } from './entry.js';
import type { PersonName } from './names.js';
import type { Paper } from '../model.js';

/** A CSL name variable. */
export interface CslName {
  family?: string;
  given?: string;
  'non-dropping-particle'?: string;
  suffix?: string;
  literal?: string;
}

/** The CSL item types this export writes. */
export type CslType = 'paper-conference' | 'article-journal' | 'article';

/** A CSL-JSON item: the variables this export writes. */
export interface CslItem {
  id: string;
  'citation-key': string;
  type: CslType;
  title: string;
  author?: CslName[];
  issued?: { 'date-parts': [[number] | [number, number] | [number, number, number]] };
  'container-title'?: string;
  'container-title-short'?: string;
  'event-title'?: string;
  event?: string;
  publisher?: string;
  number?: string;
  genre?: string;
  status?: string;
  DOI?: string;
  URL?: string;
  abstract?: string;
  keyword?: string;
}

const TYPES: Readonly<Record<Citable['kind'], CslType>> = {
  conference: 'paper-conference',
  journal: 'article-journal',
  preprint: 'article',
  unpublished: 'article',
  other: 'article',
};

/**
 * A name as a CSL name variable.
 * @example cslName({ family: 'Rossum', given: 'Guido', particle: 'van' }) // { family: 'Rossum', given: 'Guido', 'non-dropping-particle': 'van' }
 * @example cslName({ literal: 'Google DeepMind' }) // { literal: 'Google DeepMind' }
 */
export function cslName(name: PersonName): CslName {
  if ('literal' in name) return { literal: name.literal };
  return {
    family: name.family,
    given: name.given,
    ...(name.particle && { 'non-dropping-particle': name.particle }),
    ...(name.suffix && { suffix: name.suffix }),
  };
}

/**
 * One CSL-JSON item for a described paper under a given key.
 * @example cslItem(describePaper(paper), 'vaswani2017attention') // { id: 'vaswani2017attention', type: 'paper-conference', … }
 */
export function cslItem(citable: Citable, key: string): CslItem {
  const item: CslItem = { id: key, 'citation-key': key, type: TYPES[citable.kind], title: citable.title };
  if (citable.authors.length > 0) item.author = citable.authors.map(cslName);
  const date = citable.date;
  if (date) {
    const parts: [number] | [number, number] | [number, number, number] =
      date.month && date.day ? [date.year, date.month, date.day] : [date.year];
    item.issued = { 'date-parts': [parts] };
  }
  if (citable.container) {
    item['container-title'] = citable.container.name;
    if (citable.container.short !== citable.container.name) item['container-title-short'] = citable.container.short;
    if (citable.container.event) {
      // `event-title` is CSL 1.0.2's name; citeproc-js and today's styles still read `event`.
      item['event-title'] = citable.container.event;
      item.event = citable.container.event;
    }
  }
  if (citable.arxiv && (citable.kind === 'preprint' || citable.kind === 'unpublished')) {
    item.publisher = 'arXiv';
    item.number = `arXiv:${citable.arxiv.id}`;
  } else if (citable.kind === 'unpublished' && citable.paper.externalIds.openreview) {
    item.publisher = 'OpenReview';
  }
  if (citable.statusNote) item.genre = citable.statusNote;
  if (citable.status) item.status = citable.status.toLowerCase();
  if (citable.doi) item.DOI = citable.doi;
  if (citable.url) item.URL = citable.url;
  if (citable.abstract) item.abstract = citable.abstract;
  if (citable.keywords.length > 0) item.keyword = citable.keywords.join(', ');
  return item;
}

/**
 * The CSL-JSON items of the papers: one each (a paper listed twice is written once), in the
 * order given, ids unique.
 * @example cslItems([attention])[0]!.id // 'vaswani2017attention'
 */
export function cslItems(papers: readonly Paper[]): CslItem[] {
  const citables = describeAll(papers);
  const keys = citationKeys(citables);
  return citables.map((citable, i) => cslItem(citable, keys[i]!));
}

/**
 * A CSL-JSON file of the papers: the items as a JSON array, two-space indented, with a final
 * newline.
 * @example toCslJson([attention]) // '[\n  {\n    "id": "vaswani2017attention",\n    "citation-key": "vaswani2017attention",\n    "type": "paper-conference",\n…]\n'
 */
export function toCslJson(papers: readonly Paper[]): string {
  return `${JSON.stringify(cslItems(papers), null, 2)}\n`;
}
