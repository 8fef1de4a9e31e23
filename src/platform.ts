/**
 * The front ends a request can come from. Its own module, low in the import graph: commands,
 * the observer that counts them and the adapters all name it, and none of them should have to
 * import another to do so.
 */

/** Where a command, button or unfurl came from. */
export type Platform = 'discord' | 'slack' | 'terminal';
