/**
 * The meaning stage as the engine asks for it: the papers closest to a description's word groups
 * (their forms and associates, stage.ts), scored by a {@link MeaningScorer} over the view, with the
 * words the snippets look for. The association table is the base's (table.ts), read or learned
 * when first needed.
 */
import type { TermGroup } from '../expand.js';
import type { IndexView } from '../index/view.js';
import { MeaningScorer, type MeaningHit } from './scorer.js';
import { descriptionBag, meaningWords, type WeightedWord } from './stage.js';
import { tableFor } from './table.js';

export class MeaningSearch {
  private scorer: MeaningScorer | undefined;

  constructor(private readonly view: IndexView) {}

  /**
   * The `keep` best papers for a description's groups among those `admits` lets through, best
   * first, and its words for snippets.
   * @example meaning.find(planWords(parseQuery(description), view.vocab, view.liveCount), 20).hits[0]?.doc
   */
  find(groups: readonly TermGroup[], keep: number, admits?: (doc: number) => boolean): { hits: MeaningHit[]; words: WeightedWord[] } {
    const { view } = this;
    const bag = descriptionBag(groups, tableFor(view.base), view.base.docFreq.length);
    this.scorer ??= new MeaningScorer(view);
    return { hits: this.scorer.score(bag, keep, admits), words: meaningWords(bag, view) };
  }
}
