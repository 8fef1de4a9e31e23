/**
 * Discord's permissions: the bits the bot looks at, and what a member may do in a channel,
 * computed as Discord documents it (Permissions → "Permission Overwrites"): the server's owner
 * may do everything; anyone else has @everyone's permissions and their roles', where
 * Administrator means everything; then the channel's overwrite for @everyone applies, then those
 * of the member's roles together, then the member's own. Without View Channel, nothing else
 * counts. A thread takes its parent channel's overwrites. Pure.
 */

/** Permission bits (Discord's permissions bitfield). */
export const PERMISSION = {
  administrator: 1n << 3n,
  viewChannel: 1n << 10n,
  sendMessages: 1n << 11n,
  embedLinks: 1n << 14n,
  readMessageHistory: 1n << 16n,
  sendMessagesInThreads: 1n << 38n,
} as const;

/** Every permission, present and future. */
const ALL = (1n << 64n) - 1n;

/** Discord's thread channel types (announcement, public and private thread). */
export const THREAD_TYPES: readonly number[] = [10, 11, 12];

/** A channel's permission overwrite, as Discord sends it: `type` 0 a role, 1 a member. */
export interface Overwrite {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

export interface ChannelPermissionsInput {
  guildId: string;
  ownerId?: string | undefined;
  /** The server's roles, @everyone's id being the server's. */
  roles: ReadonlyArray<{ id: string; permissions: string }>;
  member: { id: string; roles: readonly string[] };
  /** The channel's overwrites (a thread's parent's). */
  overwrites: readonly Overwrite[];
}

/**
 * What `member` may do in the channel, as a bitfield.
 * @example has(channelPermissions({ guildId: '1', roles: [{ id: '1', permissions: '66560' }], member: { id: '9', roles: [] }, overwrites: [] }), PERMISSION.readMessageHistory) // true
 */
export function channelPermissions(input: ChannelPermissionsInput): bigint {
  const { guildId, member } = input;
  if (input.ownerId !== undefined && input.ownerId === member.id) return ALL;
  const roleBits = new Map(input.roles.map((r) => [r.id, bits(r.permissions)]));
  let permissions = roleBits.get(guildId) ?? 0n;
  for (const role of member.roles) permissions |= roleBits.get(role) ?? 0n;
  if ((permissions & PERMISSION.administrator) !== 0n) return ALL;
  const overwrites = new Map(input.overwrites.map((o) => [`${o.type}:${o.id}`, o]));
  const apply = (allow: bigint, deny: bigint) => (permissions = (permissions & ~deny) | allow);
  const everyone = overwrites.get(`0:${guildId}`);
  if (everyone) apply(bits(everyone.allow), bits(everyone.deny));
  let allow = 0n;
  let deny = 0n;
  for (const role of member.roles) {
    const o = role === guildId ? undefined : overwrites.get(`0:${role}`);
    if (o) {
      allow |= bits(o.allow);
      deny |= bits(o.deny);
    }
  }
  apply(allow, deny);
  const own = overwrites.get(`1:${member.id}`);
  if (own) apply(bits(own.allow), bits(own.deny));
  return (permissions & PERMISSION.viewChannel) === 0n ? 0n : permissions;
}

/**
 * Whether a bitfield holds every one of `wanted` (Administrator holding them all).
 * @example has(8n, PERMISSION.embedLinks) // true
 */
export function has(permissions: bigint, ...wanted: bigint[]): boolean {
  if ((permissions & PERMISSION.administrator) !== 0n) return true;
  return wanted.every((bit) => (permissions & bit) !== 0n);
}

/** A decimal bitfield string as Discord sends it; 0 for anything else. */
function bits(value: string): bigint {
  return /^\d{1,40}$/.test(value) ? BigInt(value) : 0n;
}
