/**
 * Block Kit limits (https://docs.slack.dev/reference/block-kit), as named constants. The renderer
 * keeps every message inside them whatever the papers or the users type; the tests check each.
 */

/** Blocks in one message. */
export const MAX_BLOCKS = 50;
/** Characters of a section block's text (and of any mrkdwn text object). */
export const SECTION_TEXT_MAX = 3000;
/** Characters of a header block's plain text. */
export const HEADER_TEXT_MAX = 150;
/** Characters of a button's label. */
export const BUTTON_TEXT_MAX = 75;
/** Characters of a button's value. */
export const BUTTON_VALUE_MAX = 2000;
/** Characters of a button's URL. */
export const BUTTON_URL_MAX = 3000;
/** Elements of a context block. */
export const CONTEXT_ELEMENTS_MAX = 10;
/** Elements of an actions block. */
export const ACTIONS_ELEMENTS_MAX = 25;
/** Characters of an option's text and of its description. */
export const OPTION_TEXT_MAX = 75;
/** Characters of an option's value. */
export const OPTION_VALUE_MAX = 150;
/** Options of a static select menu. */
export const SELECT_OPTIONS_MAX = 100;
/** Characters of a select menu's placeholder. */
export const PLACEHOLDER_MAX = 150;
/** Characters of an action_id (and of a block_id). */
export const ACTION_ID_MAX = 255;
/** Characters of the top-level `text` we send: Slack takes 40,000, notifications show a line. */
export const FALLBACK_TEXT_MAX = 3000;
/**
 * Characters of a message's blocks as JSON. Slack rejects messages somewhere above ~13,000
 * (`invalid_blocks`, "msg_too_long"); staying well under leaves room for Slack's own additions.
 */
export const BLOCKS_JSON_MAX = 10_000;
/** Characters of a URL inside mrkdwn text (`<url|label>`); longer links are shown unlinked. */
export const LINK_URL_MAX = 800;
