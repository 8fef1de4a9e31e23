/**
 * Discord's message limits, as named constants. The renderer keeps every one of them whatever
 * the data (a 10 kB title, an abstract of asterisks); Discord rejects the whole message
 * otherwise. Sources: the "Embed Limits", "Message Components" (modals, labels and text inputs
 * among them), "Create Message" and "Application Command Option" sections of Discord's API
 * reference.
 */

/** `content` of a message. */
export const CONTENT_MAX = 2000;
/** Embeds in one message. */
export const EMBEDS_MAX = 10;
/** Characters in all embeds of a message together (titles, descriptions, fields, footers, authors). */
export const EMBEDS_TOTAL_MAX = 6000;
export const EMBED_TITLE_MAX = 256;
export const EMBED_DESCRIPTION_MAX = 4096;
export const EMBED_FIELDS_MAX = 25;
export const EMBED_FIELD_NAME_MAX = 256;
export const EMBED_FIELD_VALUE_MAX = 1024;
export const EMBED_AUTHOR_MAX = 256;
/** Longest URL we put in an embed, a link button or a markdown link (Discord's link buttons take 512). */
export const URL_MAX = 512;

/**
 * Bytes of the files attached to one message in any server (boosted servers allow more; the
 * interaction's `attachment_size_limit` says so).
 */
export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
/** Characters of an attachment's file name. */
export const ATTACHMENT_NAME_MAX = 100;

/** Action rows in one message. */
export const ACTION_ROWS_MAX = 5;
/** Buttons in one action row. */
export const BUTTONS_PER_ROW_MAX = 5;
export const BUTTON_LABEL_MAX = 80;
/** `custom_id` of a button or select menu. */
export const CUSTOM_ID_MAX = 100;
export const SELECT_OPTIONS_MAX = 25;
export const SELECT_PLACEHOLDER_MAX = 150;
export const SELECT_OPTION_LABEL_MAX = 100;
export const SELECT_OPTION_VALUE_MAX = 100;
export const SELECT_OPTION_DESCRIPTION_MAX = 100;

/** A modal's title, and its custom_id (as every custom_id: {@link CUSTOM_ID_MAX}). */
export const MODAL_TITLE_MAX = 45;
/** A label component's label (the words above a modal's text box). */
export const LABEL_MAX = 45;
/** Characters a modal's text box takes (`max_length` at most), and its placeholder. */
export const TEXT_INPUT_MAX = 4000;
export const TEXT_INPUT_PLACEHOLDER_MAX = 100;
/** Characters of a slash command's string option (`max_length` at most; also Discord's default). */
export const STRING_OPTION_MAX = 6000;

/** Autocomplete: choices offered, and the length of a choice's name and value. */
export const AUTOCOMPLETE_CHOICES_MAX = 25;
export const CHOICE_NAME_MAX = 100;
export const CHOICE_VALUE_MAX = 100;

/** Discord's component types, button and text input styles, and message flags used here. */
export const ComponentKind = { ActionRow: 1, Button: 2, StringSelect: 3, TextInput: 4, Label: 18 } as const;
/** A text box of several lines (1 is one line). */
export const TEXT_INPUT_PARAGRAPH = 2;
export const ButtonStyleCode = { primary: 1, secondary: 2, success: 3, danger: 4, link: 5 } as const;
export const EPHEMERAL_FLAG = 64;
