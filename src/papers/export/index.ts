/**
 * Exports of a list of papers to the formats reference managers import: BibTeX, RIS and
 * CSL-JSON. Pure: the same papers in the same order give the same bytes.
 */
import type { Paper } from '../model.js';
import { toBibtex } from './bibtex.js';
import { toCslJson } from './csl.js';
import { toRis } from './ris.js';

/** The formats `/library export` and `paperscout export` offer. */
export const EXPORT_FORMATS = ['bibtex', 'ris', 'csljson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An export ready to be sent as a file. */
export interface ExportFile {
  format: ExportFormat;
  /** The file's text (UTF-8). */
  content: string;
  /** `application/x-bibtex`, `application/x-research-info-systems` or `application/vnd.citationstyles.csl+json`. */
  mediaType: string;
  /** The file name extension, without the dot: `bib`, `ris`, `json`. */
  extension: string;
}

const FORMATS: Readonly<Record<ExportFormat, { write: (papers: readonly Paper[]) => string; mediaType: string; extension: string }>> = {
  bibtex: { write: toBibtex, mediaType: 'application/x-bibtex', extension: 'bib' },
  ris: { write: toRis, mediaType: 'application/x-research-info-systems', extension: 'ris' },
  csljson: { write: toCslJson, mediaType: 'application/vnd.citationstyles.csl+json', extension: 'json' },
};

/**
 * Whether a string names an export format.
 * @example isExportFormat('ris') // true
 * @example isExportFormat('endnote') // false
 */
export function isExportFormat(name: string): name is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(name);
}

/**
 * The papers in one format, as a file.
 * @example exportPapers([attention], 'bibtex') // { format: 'bibtex', content: '@inproceedings{vaswani2017attention,\n…', mediaType: 'application/x-bibtex', extension: 'bib' }
 */
export function exportPapers(papers: readonly Paper[], format: ExportFormat): ExportFile {
  const { write, mediaType, extension } = FORMATS[format];
  return { format, content: write(papers), mediaType, extension };
}
