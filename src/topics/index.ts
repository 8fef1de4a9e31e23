/**
 * Topics: the "Area · Subarea" taxonomy (taxonomy.ts), what users type resolved to a topic
 * (resolve.ts), and papers classified into topics at ingest (classify.ts).
 */
export {
  DEFAULT_TAXONOMY_PATH,
  LABEL_SEPARATOR,
  MAX_LABEL_LENGTH,
  TaxonomyError,
  areaSlug,
  defaultTaxonomyPath,
  loadTaxonomy,
  matchKey,
  normalizeLabel,
  parseTaxonomy,
  topicLabel,
  type Area,
  type Definition,
  type Taxonomy,
  type Topic,
} from './taxonomy.js';
export {
  AMBIGUOUS_SUGGESTIONS,
  MAX_SUGGESTIONS,
  resolveTopic,
  suggestTopics,
  topicsByArea,
  type Resolution,
} from './resolve.js';
export {
  MAX_TOPICS,
  THRESHOLD,
  createClassifier,
  createTopicScorer,
  type ClassifiablePaper,
  type Classifier,
  type ClassifierOptions,
  type TopicScore,
} from './classify.js';
