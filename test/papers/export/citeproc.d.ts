/** The part of citeproc-js (`citeproc` on npm, which ships no types) the export tests use. */
declare module 'citeproc' {
  interface Sys {
    retrieveLocale(lang: string): string;
    retrieveItem(id: string): unknown;
  }
  interface BibliographyMeta {
    bibliography_errors: unknown[];
  }
  class Engine {
    constructor(sys: Sys, style: string, lang?: string, forceLang?: boolean);
    updateItems(ids: string[]): void;
    setOutputFormat(format: 'html' | 'text' | 'rtf'): void;
    makeBibliography(): [BibliographyMeta, string[]] | false;
  }
  const CSL: { Engine: typeof Engine };
  export default CSL;
}
