/**
 * What a reference manager wants to know about a venue: its full name (the `booktitle` or
 * `journal` a citation prints) and whether it is a conference or a journal. Data, keyed by
 * {@link venueKey}, plus the rule for venues the table does not know.
 */
import { venueKey } from '../model.js';

/** Where a venue publishes: in proceedings, or as a journal. */
export type VenueKind = 'conference' | 'journal';

/** A venue's full name and kind. */
export interface VenueInfo {
  kind: VenueKind;
  /** The name a bibliography prints, e.g. "International Conference on Learning Representations". */
  name: string;
  /** The conference's own name where its proceedings are named otherwise (NeurIPS' are "Advances in …"). */
  event?: string;
}

const C = (name: string, event?: string): VenueInfo => ({ kind: 'conference', name, ...(event && { event }) });
const J = (name: string): VenueInfo => ({ kind: 'journal', name });

/** The venues of the paperlists corpus and the journals ML papers most often appear in. */
const VENUES: ReadonlyMap<string, VenueInfo> = new Map(Object.entries({
  '3dv': C('International Conference on 3D Vision'),
  aaai: C('AAAI Conference on Artificial Intelligence'),
  acl: C('Annual Meeting of the Association for Computational Linguistics'),
  acml: C('Asian Conference on Machine Learning'),
  acmmm: C('ACM International Conference on Multimedia'),
  aistats: C('International Conference on Artificial Intelligence and Statistics'),
  alt: C('International Conference on Algorithmic Learning Theory'),
  automl: C('International Conference on Automated Machine Learning'),
  coling: C('International Conference on Computational Linguistics'),
  colm: C('Conference on Language Modeling'),
  colt: C('Conference on Learning Theory'),
  corl: C('Conference on Robot Learning'),
  cvpr: C('IEEE/CVF Conference on Computer Vision and Pattern Recognition'),
  eacl: C('Conference of the European Chapter of the Association for Computational Linguistics'),
  eccv: C('European Conference on Computer Vision'),
  emnlp: C('Conference on Empirical Methods in Natural Language Processing'),
  iccv: C('IEEE/CVF International Conference on Computer Vision'),
  iclr: C('International Conference on Learning Representations'),
  icml: C('International Conference on Machine Learning'),
  icra: C('IEEE International Conference on Robotics and Automation'),
  ijcai: C('International Joint Conference on Artificial Intelligence'),
  iros: C('IEEE/RSJ International Conference on Intelligent Robots and Systems'),
  kdd: C('ACM SIGKDD Conference on Knowledge Discovery and Data Mining'),
  naacl: C('Conference of the North American Chapter of the Association for Computational Linguistics'),
  neurips: C('Advances in Neural Information Processing Systems', 'Conference on Neural Information Processing Systems'),
  rss: C('Robotics: Science and Systems'),
  siggraph: C('ACM SIGGRAPH Conference'),
  siggraphasia: C('ACM SIGGRAPH Asia Conference'),
  uai: C('Conference on Uncertainty in Artificial Intelligence'),
  wacv: C('IEEE/CVF Winter Conference on Applications of Computer Vision'),
  www: C('ACM Web Conference'),
  jair: J('Journal of Artificial Intelligence Research'),
  jmlr: J('Journal of Machine Learning Research'),
  tacl: J('Transactions of the Association for Computational Linguistics'),
  tmlr: J('Transactions on Machine Learning Research'),
  tog: J('ACM Transactions on Graphics'),
  tpami: J('IEEE Transactions on Pattern Analysis and Machine Intelligence'),
  ijcv: J('International Journal of Computer Vision'),
}));

/** The ACL family, whose Findings volumes are "Findings of the Association for Computational Linguistics". */
const ACL_FAMILY: ReadonlySet<string> = new Set(['acl', 'emnlp', 'naacl', 'eacl', 'aacl']);

const JOURNAL_WORDS = /\b(journal|transactions|letters|review|reviews|magazine|annals|bulletin)\b/i;
const CONFERENCE_WORDS = /\b(conference|proceedings|symposium|workshops?|meeting|congress)\b/i;

/**
 * What the table, or failing it the venue's own words, say of a venue; undefined when
 * neither tells (the caller then decides from the DOI and the status).
 * @example venueInfo('ICLR') // { kind: 'conference', name: 'International Conference on Learning Representations' }
 * @example venueInfo('Nature Machine Intelligence') // undefined
 * @example venueInfo('IEEE Transactions on Robotics') // { kind: 'journal', name: 'IEEE Transactions on Robotics' }
 */
export function venueInfo(venue: string): VenueInfo | undefined {
  const known = VENUES.get(venueKey(venue));
  if (known) return known;
  if (JOURNAL_WORDS.test(venue)) return J(venue);
  if (CONFERENCE_WORDS.test(venue)) return C(venue);
  return undefined;
}

/**
 * Whether a venue is of the ACL family, whose Findings have their own proceedings.
 * @example isAclFamily('EMNLP') // true
 */
export function isAclFamily(venue: string): boolean {
  return ACL_FAMILY.has(venueKey(venue));
}
