/**
 * The platform-neutral reply every command returns. Adapters render it: Discord as embeds and
 * components, Slack as Block Kit, the terminal as text. Text here is plain (never markup): each
 * renderer escapes it for its platform, so nothing in a paper or a query can become a mention,
 * a link or broken formatting.
 */

/** A run of text; `match` marks a query word (a snippet's marks, which each renderer bolds its own way). */
export interface TextSegment {
  text: string;
  match?: boolean;
}

/** What a link of a paper leads to. */
export type LinkKind = 'page' | 'pdf' | 'code' | 'project' | 'arxiv' | 'openreview' | 'doi';

/** A link shown with a paper: pdf, code, project page, arXiv, DOI, OpenReview. */
export interface PaperLink {
  kind: LinkKind;
  /** What the link is called in the reader's language. */
  label: string;
  url: string;
}

/** A paper as a result card or, with `abstract`, as a detail view. */
export interface PaperCard {
  id: string;
  /** The store's document number: a short, stable handle for buttons. */
  doc: number;
  title: string;
  /** The paper's landing page, if any. */
  url?: string;
  authors: string[];
  venue: string;
  year: number | null;
  status: string;
  /**
   * How many works cite the paper, where OpenAlex has said (absent where it is unknown, never a
   * 0 for unknown): the count, and how the card shows it in the reader's language: "cited by
   * 12k" on a result card, "cited by 12,345" in a detail view. Renderers show `text` with the
   * venue, year and status.
   */
  citedBy?: { count: number; text: string };
  /** Topic labels, "Area · Name", in the reader's language. */
  topics: string[];
  /** Where the query's words are in the abstract, marked. */
  snippet?: TextSegment[];
  /** The full abstract (detail view). */
  abstract?: string;
  links: PaperLink[];
  /** 1-based place in a result list. */
  position?: number;
  /**
   * Where the paper is on a reading list: who added or shared it, when, their note, how many
   * times it was shared. Plain text, as every text here (renderers escape it).
   */
  provenance?: string;
  /** Buttons of this card alone (Save); renderers put them beside the card or number them. */
  actions?: Button[];
}

export interface ListItem {
  text: string;
  url?: string;
  /** A second line, e.g. venue and year. */
  detail?: string;
  /** A button action that opens the item. */
  action?: string;
}

export type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string | TextSegment[] }
  /** Small print: counts, notes about how the query was read. */
  | { kind: 'note'; text: string }
  | { kind: 'paper'; paper: PaperCard }
  | { kind: 'list'; heading?: string; items: ListItem[] }
  | { kind: 'divider' };

export interface Button {
  label: string;
  /** A stable name that does not depend on the language (`prev`, `next`), for text front ends. */
  id?: string;
  /** An action handle `<command>:<verb>:<args…>`, at most {@link MAX_ACTION_LENGTH} characters. */
  action?: string;
  url?: string;
  /**
   * The command whose form the button opens instead (a dialog asking for one long text, such as
   * a pasted abstract; see `Command.form`), where the platform has dialogs (Discord's modals).
   * Renderers of platforms without them leave the button out: there the text is typed after the
   * command.
   */
  form?: string;
  style?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
}

export interface MenuChoice {
  label: string;
  action: string;
  description?: string;
  /** The number shown beside the item in the reply (a result's 1-based place), when it has one. */
  position?: number;
}

export interface Reply {
  /**
   * The language the reply is written in (a locale tag); the renderers write their own few words
   * ("Share in channel", "et al.") in it too. English when absent.
   */
  locale?: string;
  /** The whole reply as one plain line or two: notifications, previews, screen readers. */
  fallback: string;
  blocks: Block[];
  /** Rows of buttons. */
  buttons?: Button[][];
  /** A pick-one menu, e.g. "Open a paper". */
  menu?: { placeholder: string; choices: MenuChoice[] };
  /** Shown only to the person who asked. */
  ephemeral?: boolean;
  /** Whether the platform may offer to post the reply to the channel (Slack "Share"). */
  shareable?: boolean;
  /**
   * An action handle that makes this reply again (a saved search's page): how a platform that
   * shares a reply by making it again (Slack's Share) does so when the command's own text is too
   * long to carry (a pasted abstract).
   */
  redo?: string;
  /** A file that goes with the reply (an export): a Discord attachment, a Slack upload. */
  file?: ReplyFile;
}

/** A file a reply carries, as text (exports are BibTeX, RIS or CSL-JSON). */
export interface ReplyFile {
  /** The file name, letters, digits, `-`, `_` and `.` only. */
  name: string;
  /** Its media type, e.g. `application/x-bibtex`. */
  mediaType: string;
  content: string;
}

/** Discord caps custom_id at 100 characters; every action handle stays within it. */
export const MAX_ACTION_LENGTH = 100;

/**
 * Builds an action handle from a command, a verb and arguments (none may contain `:`).
 * @example action('paper', 'page', 'k3f9x2', 2) // 'paper:page:k3f9x2:2'
 */
export function action(command: string, verb: string, ...args: Array<string | number>): string {
  const handle = [command, verb, ...args.map(String)].join(':');
  if (handle.length > MAX_ACTION_LENGTH || args.some((a) => String(a).includes(':'))) {
    throw new Error(`action handle "${handle.slice(0, 120)}" is longer than ${MAX_ACTION_LENGTH} characters or has a ':' in an argument`);
  }
  return handle;
}

/** The verb of the handle that opens a command's form (`paper:form`): no command has an action of that name. */
export const FORM_VERB = 'form';

/**
 * The handle of a command's form, which a platform with dialogs gives the dialog and the button opening it.
 * @example formHandle('paper') // 'paper:form'
 */
export function formHandle(command: string): string {
  return action(command, FORM_VERB);
}

/**
 * Splits an action handle into its command, verb and arguments; undefined for anything that is
 * not one (a payload's value may be no text at all).
 * @example parseAction('paper:page:k3f9x2:2') // { command: 'paper', verb: 'page', args: ['k3f9x2', '2'] }
 */
export function parseAction(handle: unknown): { command: string; verb: string; args: string[] } | undefined {
  if (typeof handle !== 'string' || handle.length === 0 || handle.length > MAX_ACTION_LENGTH) return undefined;
  const [command, verb, ...args] = handle.split(':');
  if (!command || !verb) return undefined;
  return { command, verb, args };
}

/** A reply that is only a message, for errors and confirmations. */
export function messageReply(text: string, options: { ephemeral?: boolean; locale?: string } = {}): Reply {
  return { ...(options.locale && { locale: options.locale }), fallback: text, blocks: [{ kind: 'text', text }], ...(options.ephemeral && { ephemeral: true }) };
}
