/**
 * The gateway guard: every dispatch discord.js receives passes through here before discord.js
 * reads it. An interaction is normalized first (incoming.ts) and where it happened is noted for
 * the command context. Whatever discord.js still throws on is caught, logged in one line naming
 * the packet, and dropped; an interaction that can still be answered gets an apology with the
 * reference. Without this, a throw in discord.js's packet handler is an unhandled rejection and
 * Node ends the process, taking every other platform down with it.
 */
import { Routes, type Client } from 'discord.js';
import type { Logger } from 'pino';
import { apology, errorReference } from '../../src/errors.js';
import { messages } from '../../src/i18n/index.js';
import { messageReply } from '../../src/reply.js';
import { normalizeInteraction, placeOf, type Place } from './incoming.js';
import { renderMessage } from './render.js';

/** Interactions whose place is kept until their command runs (more means discord.js dropped them). */
export const PLACES_KEPT = 1000;

/** Discord's interaction types and callback types used here. */
const INTERACTION_AUTOCOMPLETE = 4;
const CALLBACK = { message: 4, autocompleteResult: 8 } as const;
/** Ephemeral (only the user sees it). */
const EPHEMERAL = 64;

/* eslint-disable @typescript-eslint/no-explicit-any */

interface Dispatch {
  t?: unknown;
  d?: any;
}

/** discord.js's own per-packet entry point (private in its typings, stable in 14.x). */
interface PacketHandling {
  handlePacket(packet?: Dispatch, shard?: unknown): boolean;
}

export interface GatewayGuard {
  /** Where the interaction with this id happened, once (undefined when not noted). */
  takePlace(interactionId: string): Place | undefined;
}

/**
 * Puts the guard in front of discord.js's packet handling; call before `login`.
 * @example const gateway = guardGateway(client, log); … gateway.takePlace(interaction.id)
 */
export function guardGateway(client: Client, log: Logger): GatewayGuard {
  const manager = client.ws as unknown as PacketHandling;
  if (typeof manager.handlePacket !== 'function') {
    throw new Error('Discord: this discord.js version has no WebSocketManager.handlePacket, so gateway payloads cannot be guarded. Use the discord.js version in package-lock.json.');
  }
  const original = manager.handlePacket.bind(manager);
  const places = new Map<string, Place>();

  manager.handlePacket = (packet, shard) => {
    try {
      if (packet?.t === 'INTERACTION_CREATE') {
        packet = { ...packet, d: normalizeInteraction(packet.d, client.application?.id) };
        note(places, packet.d);
      }
      return original(packet, shard);
    } catch (err) {
      const reference = errorReference();
      const d = packet?.d;
      const interaction = packet?.t === 'INTERACTION_CREATE' && d && typeof d === 'object' ? { interactionType: d.type, interaction: d.id } : {};
      if (typeof d?.id === 'string') places.delete(d.id);
      log.error({ err, reference, packet: String(packet?.t), ...interaction }, 'Discord: discord.js could not read a gateway packet; it was dropped');
      if (packet?.t === 'INTERACTION_CREATE') void apologize(client, d, reference, log);
      return true;
    }
  };
  return {
    takePlace(id) {
      const place = places.get(id);
      places.delete(id);
      return place;
    },
  };
}

function note(places: Map<string, Place>, payload: any): void {
  if (typeof payload?.id !== 'string') return;
  places.set(payload.id, placeOf(payload));
  // discord.js drops interaction types it does not know; their places must not pile up.
  if (places.size > PLACES_KEPT) places.delete(places.keys().next().value!);
}

/** The apology in the member's language, from the raw payload's `locale`. */
function apologyReply(reference: string, locale: unknown) {
  const m = messages(typeof locale === 'string' ? locale : undefined);
  return messageReply(apology(reference, m), { ephemeral: true, locale: m.locale });
}

/** Answers an interaction discord.js could not read: an apology, or no choices for autocomplete. */
async function apologize(client: Client, payload: any, reference: string, log: Logger): Promise<void> {
  const id = payload?.id;
  const token = payload?.token;
  if (typeof id !== 'string' || typeof token !== 'string' || !/^\d{1,25}$/.test(id)) return;
  const body =
    payload.type === INTERACTION_AUTOCOMPLETE
      ? { type: CALLBACK.autocompleteResult, data: { choices: [] } }
      : { type: CALLBACK.message, data: { ...renderMessage(apologyReply(reference, payload?.locale)), flags: EPHEMERAL } };
  try {
    await client.rest.post(Routes.interactionCallback(id, token), { body, auth: false });
  } catch (err) {
    log.warn({ err, interaction: id }, 'Discord: could not answer an interaction it could not read');
  }
}
