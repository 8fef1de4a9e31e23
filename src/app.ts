/**
 * The core assembled: database, paper store, topics, search library and commands, with an
 * explicit start (open) and stop (close). Adapters receive an {@link App}; nothing here knows
 * about Discord, Slack or terminals.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { createRegistry, type CommandRegistry } from './commands/registry.js';
import type { CommandContext, Platform } from './commands/types.js';
import type { Config } from './config.js';
import { ingestPaths } from './ingest/ingest.js';
import { Library } from './library.js';
import { silentObserver, type Observer } from './observer.js';
import { rebuildElsewhere, rebuildHere } from './search/rebuildPolicy.js';
import { openMemoryPaperStore, openStores, type Stores } from './store/open.js';
import type { JobLeases } from './store/jobs.js';
import { TEXT_VERSION_KEY, type PaperStore } from './store/papers.js';
import { TEXT_VERSION } from './text.js';
import type { SeenEvents } from './store/seenEvents.js';
import type { StateStore } from './store/states.js';
import type { DigestStore } from './store/digests.js';
import { createDictionary, loadGlossary, messages, type Dictionary } from './i18n/index.js';
import { createClassifier, type Classifier } from './topics/classify.js';
import { resolveTopic, suggestTopics } from './topics/resolve.js';
import { defaultTaxonomyPath, loadTaxonomy, type Taxonomy } from './topics/taxonomy.js';
import { seedPath } from './paths.js';
import { systemClock, type Clock } from './clock.js';
import { UpstreamLookup, type PaperLookup } from './sources/lookup.js';

/** The demo corpus a fresh clone searches until a real one is ingested. */
export const DEMO_CORPUS_FILE = 'demo-papers.jsonl';

export interface App {
  config: Config;
  log: Logger;
  /** The store the configuration names (SQLite under DATA_DIR, or DATABASE_URL's PostgreSQL). */
  stores: Stores;
  /** The papers searched: the store's, or the in-memory demo store when that is empty. */
  store: PaperStore;
  states: StateStore;
  /** Digest subscriptions, ledger and runs. */
  digests: DigestStore;
  /** Platform event ids already taken, so that a redelivered event is answered once. */
  seenEvents: SeenEvents;
  /** Leases of scheduled jobs, so that one process (or instance) runs each. */
  jobs: JobLeases;
  /** The clock (injected in tests). */
  now: () => Date;
  taxonomy: Taxonomy;
  classify: Classifier;
  library: Library;
  registry: CommandRegistry;
  /** Whether the library is the bundled demo corpus. */
  demo: boolean;
  /** Fetches papers the library lacks; undefined with LOOKUP_UPSTREAM=off. */
  lookup?: PaperLookup;
  /**
   * A context for running commands on behalf of a user, in the language of `extra.locale` (the
   * terminal's, from the environment, when none is given there).
   */
  context(platform: Platform, user: CommandContext['user'], extra?: Partial<CommandContext>): CommandContext;
  /**
   * Writes what is queued (button state) and closes the store; with `checkpoint` (a clean stop of
   * the bot) SQLite is checkpointed first.
   */
  close(options?: { checkpoint?: boolean }): Promise<void>;
}

export interface OpenAppOptions {
  now?: () => Date;
  /** Use the demo corpus when DATA_DIR has no papers (default true). */
  demoWhenEmpty?: boolean;
  taxonomyPath?: string;
  /** Time for outbound lookups (their politeness waits); the system clock by default. */
  clock?: Clock;
  /**
   * The bot serving many users (`npm start` with Discord or Slack): once open, it waits only
   * briefly for another process's write lock, and it never rebuilds the search
   * index itself (`rebuildElsewhere`: a child process does; see adapters/background.ts). Default
   * false: a batch tool that may wait and rebuild.
   */
  serving?: boolean;
  /** Hears of commands and searches (the metrics of `npm start`); silent by default. */
  observer?: Observer;
  /**
   * How long to keep trying to reach a PostgreSQL store that does not answer at start:
   * `forever` for the bot, else milliseconds (default: the command line's 30 s).
   */
  storePatience?: 'forever' | number;
  /**
   * Only reading (the command line's search, show, stats): a library this process cannot write
   * is opened read-only instead of refused (see `OpenStoresOptions.readOnlyIfUnwritable`). Then
   * nothing is written: no upkeep of the library, a search index built in memory if the one on
   * disk does not fit, and no papers fetched from upstream (they would be added).
   */
  readOnlyIfUnwritable?: boolean;
}

/**
 * Opens the store (DATA_DIR's SQLite database, or DATABASE_URL's PostgreSQL), brings topics and
 * the search index up to date, and returns the assembled core.
 * @example const app = await openApp(loadConfig(), log); … await app.close();
 */
export async function openApp(config: Config, log: Logger, options: OpenAppOptions = {}): Promise<App> {
  const now = options.now ?? (() => new Date());
  const { taxonomy, taxonomyHash, classify } = loadTopics(options.taxonomyPath);
  const stores = await openStores(config, {
    log,
    ...(options.storePatience !== undefined && { patience: options.storePatience }),
    ...(options.readOnlyIfUnwritable && { readOnlyIfUnwritable: true }),
  });
  const { states, readOnly } = stores;
  try {
    if (readOnly) log.info({ path: stores.description }, 'this user cannot write the library: reading it without writing anything');
    else if ((await states.purge(now())) === undefined) log.info('another process holds the database write lock: expired button state is purged later');
    let store = stores.papers;
    let demo = false;
    if ((await store.count()) === 0 && options.demoWhenEmpty !== false) {
      store = await demoStore(classify, now);
      demo = true;
      log.info({ papers: await store.count() }, 'the library has no papers yet: searching the bundled demo corpus (ingest one with `npm run cli -- ingest <path>`)');
    } else if (readOnly) {
      if (!(await libraryIsCurrent(store, taxonomyHash))) {
        log.warn('the library was written by another version of Paper Scout or for another taxonomy, and this user cannot write it to bring it up to date: its topics (or how its text is read) may be out of date until a user who can runs paperscout reindex');
      }
    } else {
      const changed = await ensureLibraryCurrent(store, { taxonomyHash, classify }, log);
      if (changed > 0) log.info({ changed }, 'topics recomputed for the current taxonomy');
    }
    const library = new Library({
      store,
      // The demo's papers are numbered by its own store: the library's citations are not theirs.
      ...(!demo && { citations: stores.citations }),
      taxonomy,
      taxonomyHash,
      topics: { resolve: (input) => resolveTopic(taxonomy, input), suggest: (prefix, limit) => suggestTopics(taxonomy, prefix, limit) },
      dictionary: chineseDictionary(taxonomy),
      ...(demo ? {} : { indexPath: config.indexPath }),
      rebuild: options.serving ? rebuildElsewhere : rebuildHere({ save: !readOnly }),
      log,
      observer: options.observer ?? silentObserver,
      ...(config.web.publicUrl !== undefined && { publicUrl: config.web.publicUrl }),
    });
    await library.open();
    const registry = createRegistry(options.observer);
    if (options.serving) stores.serve();
    states.start();
    const { digests } = stores;
    // In the demo, looked-up papers join the in-memory demo store: DATA_DIR stays empty.
    const lookup = config.lookup.upstream && !readOnly ? new UpstreamLookup({ store, classify, clock: options.clock ?? systemClock, log, config }) : undefined;
    return {
      config,
      log,
      stores,
      store,
      states,
      digests,
      seenEvents: stores.seenEvents,
      jobs: stores.jobs,
      now,
      taxonomy,
      classify,
      library,
      registry,
      demo,
      ...(lookup && { lookup }),
      context: (platform, user, extra = {}) => {
        const locale = extra.locale ?? (platform === 'terminal' ? config.locale : undefined);
        return { library, states, digests, readingLists: stores.readingLists, ratings: stores.ratings, platform, user, now, log, ...(lookup && { lookup }), ...extra, ...(locale && { locale }), i18n: extra.i18n ?? messages(locale) };
      },
      close: async ({ checkpoint } = {}) => {
        const unsaved = await states.stop();
        if (unsaved > 0) log.warn({ unsaved }, 'the store stayed locked or unreachable: the buttons of these searches will say they expired');
        if (demo) await store.close();
        await stores.close({ ...(checkpoint !== undefined && { checkpoint }) });
      },
    };
  } catch (err) {
    await states.stop();
    await stores.close();
    throw err;
  }
}

/**
 * The taxonomy, a fingerprint of its file (papers' topics are recomputed when it changes) and
 * the classifier built from it. The classifier is compiled on first use: a bot that only
 * searches never needs it, and compiling it is a good part of start-up.
 */
export function loadTopics(path: string = defaultTaxonomyPath()): { taxonomy: Taxonomy; taxonomyHash: string; classify: Classifier; taxonomyPath: string } {
  const taxonomy = loadTaxonomy(path);
  const taxonomyHash = createHash('sha1').update(readFileSync(path)).digest('hex').slice(0, 16);
  let compiled: Classifier | undefined;
  const classify: Classifier = (paper) => (compiled ??= createClassifier(taxonomy))(paper);
  return { taxonomy, taxonomyHash, classify, taxonomyPath: path };
}

/**
 * The glossary's Chinese terms and the taxonomy's Chinese topic names, for reading Chinese queries.
 * @example chineseDictionary(taxonomy).get('扩散模型') // { english: 'diffusion model' }
 */
export function chineseDictionary(taxonomy: Taxonomy): Dictionary {
  const glossary = loadGlossary();
  const topics = taxonomy.topics.map((t) => ({ id: t.id, labels: t.labels, names: [...Object.values(t.names), ...t.aliases] }));
  return createDictionary(glossary.terms, topics, glossary.ignore);
}

/**
 * Brings a library in DATA_DIR up to what this version reads, before anything reads or writes
 * it: text and title aliases in the current normalization and statuses in the current
 * vocabulary (once, after an upgrade, logged), then topics for the current taxonomy. Returns
 * how many papers' topics the taxonomy changed.
 */
export async function ensureLibraryCurrent(store: PaperStore, topics: { taxonomyHash: string; classify: Classifier }, log: Logger): Promise<number> {
  const upgrade = await store.upgradeText(topics.classify);
  if (upgrade) {
    log.info(
      upgrade,
      `library upgraded to text normalization ${upgrade.to}: LaTeX decoded in ${upgrade.decoded} of ${upgrade.papers} papers, ` +
        `${upgrade.aliases} title aliases recomputed` +
        (upgrade.shared > 0 ? `, ${upgrade.shared} of them already another paper's (kept with it)` : ''),
    );
  }
  const statuses = await store.upgradeStatuses();
  if (statuses) {
    const renamed = statuses.renamed.map(([from, to, n]) => `${from} → ${to} (${n})`).join(', ');
    log.info(statuses, `library statuses put in one vocabulary: ${statuses.papers} papers, ${renamed}`);
  }
  return ensureTopicsCurrent(store, topics);
}

/** Whether {@link ensureLibraryCurrent} would have nothing to do (it writes; this only reads). */
async function libraryIsCurrent(store: PaperStore, taxonomyHash: string): Promise<boolean> {
  const text = Number((await store.getMeta(TEXT_VERSION_KEY)) ?? 1);
  return text >= TEXT_VERSION && (await store.getMeta('taxonomy_hash')) === taxonomyHash;
}

/**
 * Recomputes the papers' topics if the taxonomy changed since they were computed, and records
 * the taxonomy they are now computed with. Returns how many papers changed.
 */
export async function ensureTopicsCurrent(store: PaperStore, topics: { taxonomyHash: string; classify: Classifier }): Promise<number> {
  if ((await store.getMeta('taxonomy_hash')) === topics.taxonomyHash) return 0;
  const changed = (await store.count()) > 0 ? await store.reclassify(topics.classify) : 0;
  await store.setMeta('taxonomy_hash', topics.taxonomyHash);
  return changed;
}

async function demoStore(classify: Classifier, now: () => Date): Promise<PaperStore> {
  const store = openMemoryPaperStore();
  const path = seedPath(DEMO_CORPUS_FILE);
  const summary = await ingestPaths([path], { store, classify, now });
  if (summary.rejected > 0 || summary.failedFiles.length > 0) {
    throw new Error(`The demo corpus ${path} has bad records: ${JSON.stringify(summary.rejects.slice(0, 3))}`);
  }
  return store;
}
