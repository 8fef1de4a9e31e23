/**
 * Slack's redeliveries of an event, answered once. Slack retries an Events API callback (up to
 * three times: at once, after a minute, after five) whenever it thinks a delivery failed: the
 * ack was slow (`http_timeout`), the connection was refused (`connection_failed`), the answer was
 * not a 2xx (`http_error`), TLS or redirects failed, `unknown_error`, and sometimes it sends the
 * event again with no retry headers at all. So the headers decide nothing: every event is
 * claimed by its `event_id` in the shared store ({@link SeenEvents}, which a restarted process
 * and a second instance also read) before a listener sees it, and a later sighting is dropped.
 * Bolt has acknowledged every event before this runs, so a dropped one is not retried again.
 *
 * Slash commands and interactivity are not retried by Slack (an ack later than 3 s shows the
 * user an error instead), so only events are claimed.
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import type { SeenEvents } from '../../src/store/seenEvents.js';

/**
 * Bolt global middleware that lets each event_callback through once.
 * @example bolt.use(oncePerEvent(app.seenEvents, app.now, log));
 */
export function oncePerEvent(seen: SeenEvents, now: () => Date, log: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const event = body as { type?: unknown; event_id?: unknown; event?: { type?: unknown } };
    if (event.type !== 'event_callback' || typeof event.event_id !== 'string') {
      await next();
      return;
    }
    let first = true;
    try {
      first = await seen.firstSighting(`slack:${event.event_id}`, now());
    } catch (err) {
      // Better answered twice than never: without the store, the event is handled.
      log.warn({ err, eventId: event.event_id }, 'Slack: could not record an event id; handling the event without the redelivery check');
    }
    if (!first) {
      log.info({ eventId: event.event_id, event: event.event?.type, retryNum: context.retryNum, retryReason: context.retryReason }, 'Slack: dropped a redelivery of an event already taken');
      return;
    }
    await next();
  };
}
