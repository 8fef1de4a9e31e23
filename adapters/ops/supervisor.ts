/**
 * Keeps each platform adapter running, each on its own: a start that fails because the network
 * did is retried with backoff; a start the platform refuses (a bad token) is reported once and
 * not retried; a client that dies later (its connection closed for good, or its code threw) is
 * stopped and started again with backoff, while the other platform carries on.
 *
 * "No platform could start" means every configured platform refused its credentials or
 * settings: retrying cannot help, so {@link SupervisorOptions.onAllRefused} is told. A platform
 * that is only unreachable is never given up on.
 */
import type { Logger } from 'pino';
import { StartError, describeCause, type RunningAdapter } from '../adapter.js';
import type { Clock } from '../../src/clock.js';

/** Waits before the 1st, 2nd, … retry; the last one repeats. */
export const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];
/** A connection attempt with no answer by then counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 60_000;
/** A client that ran this long before it died starts its retries from the shortest wait again. */
export const STABLE_AFTER_MS = 60_000;

export interface PlatformStarter {
  name: string;
  /** One attempt to connect; rejects with a {@link StartError} (or anything) when it fails. */
  start(signal: AbortSignal): Promise<RunningAdapter>;
}

/**
 * - `connecting`: an attempt is under way;
 * - `connected`, or `reconnecting` when the client is recovering a dropped connection itself;
 * - `waiting`: the last attempt failed (or the client died) and the next one is at `retryAt`;
 * - `refused`: the platform refused the credentials or settings; not retried;
 * - `stopped`: the process is shutting down.
 */
export type AdapterState = 'connecting' | 'connected' | 'reconnecting' | 'waiting' | 'refused' | 'stopped';

export interface AdapterStatus {
  state: AdapterState;
  /** When it entered this state (ISO). */
  since: string;
  /** Failed attempts since it was last connected. */
  failures: number;
  /** Times it was started again after it had been connected. */
  restarts: number;
  lastError?: string;
  retryAt?: string;
}

export interface SupervisorOptions {
  log: Logger;
  clock: Clock;
  retryDelaysMs?: readonly number[];
  connectTimeoutMs?: number;
  /** Every platform refused its credentials: nothing will ever connect. */
  onAllRefused?: (errors: Record<string, string>) => void;
}

interface Slot {
  starter: PlatformStarter;
  status: AdapterStatus;
  adapter?: RunningAdapter;
  /** Set while an attempt or a connected client can be told that its code crashed. */
  crash?: (err: Error) => void;
  /** Failures and deaths in a row, for the backoff (a stable run clears it). */
  streak: number;
  loop?: Promise<void>;
}

export class Supervisor {
  private readonly slots = new Map<string, Slot>();
  private readonly stopping = new AbortController();
  private readonly stopped: Promise<void>;

  constructor(private readonly options: SupervisorOptions) {
    this.stopped = new Promise((resolve) => this.stopping.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** Adds an adapter to supervise (started by {@link start}). */
  add(starter: PlatformStarter): this {
    if (this.slots.has(starter.name)) throw new Error(`Supervisor: "${starter.name}" is supervised already`);
    const since = this.options.clock.now().toISOString();
    this.slots.set(starter.name, { starter, streak: 0, status: { state: 'connecting', since, failures: 0, restarts: 0 } });
    return this;
  }

  /** Starts every adapter, each in its own loop; returns at once. */
  start(): void {
    for (const slot of this.slots.values()) slot.loop ??= this.run(slot);
  }

  /** Each adapter's state, for health and metrics. */
  status(): Record<string, AdapterStatus> {
    return Object.fromEntries(
      [...this.slots].map(([name, slot]) => {
        const reconnecting = slot.status.state === 'connected' && slot.adapter?.state?.() === 'reconnecting';
        return [name, reconnecting ? { ...slot.status, state: 'reconnecting' as const } : { ...slot.status }];
      }),
    );
  }

  /** The adapter connected under `name`, if it is. */
  adapter(name: string): RunningAdapter | undefined {
    return this.slots.get(name)?.adapter;
  }

  /** Whether every adapter is connected (and not recovering a dropped connection). */
  get allConnected(): boolean {
    return Object.values(this.status()).every((s) => s.state === 'connected');
  }

  /**
   * The adapter's code failed in a way it could not report (an uncaught error from its client):
   * it is stopped and started again with backoff.
   */
  crashed(name: string, err: Error): void {
    this.slots.get(name)?.crash?.(err);
  }

  /** Stops retrying and tells the connected adapters to take no new work (work under way carries on). */
  async stopAccepting(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.slots.values()].map((slot) => slot.adapter?.stopAccepting?.().catch((err: unknown) => this.options.log.warn({ err, adapter: slot.starter.name }, 'could not stop taking requests'))));
  }

  /** Stops every adapter. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.slots.values()].map((slot) => slot.loop));
    await Promise.all(
      [...this.slots.values()].map(async (slot) => {
        const adapter = slot.adapter;
        slot.adapter = undefined;
        this.set(slot, { state: 'stopped' });
        await adapter?.stop().catch((err: unknown) => this.options.log.warn({ err, adapter: slot.starter.name }, 'adapter did not stop cleanly'));
      }),
    );
  }

  private async run(slot: Slot): Promise<void> {
    const { log, clock } = this.options;
    const name = slot.starter.name;
    while (!this.stopping.signal.aborted) {
      this.set(slot, { state: 'connecting' });
      const adapter = await this.attempt(slot);
      if (this.stopping.signal.aborted) {
        // Shutting down while it connected: stop() takes care of it.
        if (!(adapter instanceof Error)) slot.adapter = adapter;
        return;
      }
      if (adapter instanceof Error) {
        const failure = adapter instanceof StartError ? adapter.failure : 'failed';
        const reason = adapter instanceof StartError ? adapter.message : describeCause(adapter);
        if (failure === 'refused') {
          this.set(slot, { state: 'refused', failures: slot.status.failures + 1, lastError: reason });
          log.error({ adapter: name }, `${name} will not start: ${reason}`);
          this.checkAllRefused();
          return;
        }
        this.set(slot, { state: 'connecting', failures: slot.status.failures + 1, lastError: reason });
        await this.wait(slot, `${name}: ${reason}`);
        continue;
      }
      slot.adapter = adapter;
      const connectedAt = clock.now().getTime();
      this.set(slot, { state: 'connected', failures: 0, lastError: undefined });
      const crashed = new Promise<Error>((resolve) => (slot.crash = resolve));
      const why = await Promise.race([adapter.down ?? new Promise<never>(() => undefined), crashed, this.stopped.then(() => undefined)]);
      slot.crash = undefined;
      if (!why) return;
      slot.adapter = undefined;
      await adapter.stop().catch((err: unknown) => log.warn({ err, adapter: name }, 'adapter did not stop cleanly'));
      if (clock.now().getTime() - connectedAt >= STABLE_AFTER_MS) slot.streak = 0;
      this.set(slot, { state: 'connecting', restarts: slot.status.restarts + 1, lastError: why.message });
      await this.wait(slot, `${name} stopped working (${why.message})`);
    }
  }

  /** One attempt, bounded by the connect timeout; resolves the adapter or the error. */
  private async attempt(slot: Slot): Promise<RunningAdapter | Error> {
    const timeoutMs = this.options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const attempt = new AbortController();
    const giveUp = (reason: Error) => attempt.abort(reason);
    const onStop = () => giveUp(new Error('shutting down'));
    this.stopping.signal.addEventListener('abort', onStop, { once: true });
    let crash: Error | undefined;
    slot.crash = (err) => {
      crash = err;
      giveUp(err);
    };
    const timer = new AbortController();
    void this.options.clock
      .sleep(timeoutMs, timer.signal)
      .then(() => giveUp(new StartError('unreachable', `no answer within ${Math.round(timeoutMs / 1000)} s`)))
      .catch(() => undefined);
    try {
      const adapter = await slot.starter.start(attempt.signal);
      if (!crash) return adapter;
      // Its client failed while it finished starting: this one cannot be trusted.
      await adapter.stop().catch(() => undefined);
      return crash;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    } finally {
      timer.abort();
      this.stopping.signal.removeEventListener('abort', onStop);
      slot.crash = undefined;
    }
  }

  /** Backoff before the next attempt, logged with the reason and when it will be. */
  private async wait(slot: Slot, message: string): Promise<void> {
    const delays = this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const delay = delays[Math.min(slot.streak, delays.length - 1)] ?? 0;
    slot.streak++;
    const retryAt = new Date(this.options.clock.now().getTime() + delay);
    this.set(slot, { state: 'waiting', retryAt: retryAt.toISOString() });
    const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
    this.options.log.warn({ adapter: slot.starter.name, retryInSeconds: delay / 1000 }, `${sentence} Trying again in ${formatDelay(delay)}.`);
    await this.options.clock.sleep(delay, this.stopping.signal).catch(() => undefined);
  }

  /** A new state; `retryAt` only lives in `waiting`, an `undefined` field is cleared. */
  private set(slot: Slot, change: Partial<AdapterStatus> & { state: AdapterState }): void {
    const { retryAt: _, ...rest } = slot.status;
    const next: AdapterStatus = { ...rest, ...change, since: this.options.clock.now().toISOString() };
    for (const key of Object.keys(next) as Array<keyof AdapterStatus>) if (next[key] === undefined) delete next[key];
    slot.status = next;
  }

  private checkAllRefused(): void {
    const statuses = [...this.slots.values()].map((s) => s.status);
    if (statuses.every((s) => s.state === 'refused')) {
      this.options.onAllRefused?.(Object.fromEntries([...this.slots].map(([name, s]) => [name, s.status.lastError ?? 'refused'])));
    }
  }
}

function formatDelay(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}
