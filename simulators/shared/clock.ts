import { performance } from 'node:perf_hooks';
/**
 * The injected clock of the simulators. Simulated behaviour that depends on time (snapshot cache,
 * token expiry, scheduled updates, throttling) reads `now()` and schedules on this clock, so the
 * control plane can advance it. The harness's own timeouts use real timers, never this clock.
 *
 * Modes:
 * - `frozen`: time stands still until `advance()` or `set()` (tests; deterministic).
 * - `running`: time flows with the wall clock plus an offset (`simulate` for plug-in vendors).
 *   Timers then also fire on their own.
 */
export interface Clock {
  /**
   * Whether time stands still (`frozen`) or flows by itself (`running`): what spreads work over
   * real time (field activity's per-PBX phase) reads it, and a frozen clock keeps everything at
   * the instants `advance` reaches.
   */
  readonly mode: ClockMode;
  now(): number;
  setTimer(callback: () => void, delayMs: number): TimerId;
  clearTimer(id: TimerId): void;
}

export type TimerId = number;

export type ClockMode = 'frozen' | 'running';

/** Longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days). */
const MAX_REAL_DELAY_MS = 2 ** 31 - 1;

export interface VirtualClockOptions {
  /** Time the clock starts at; default: `base()` at creation. */
  start?: number;
  mode?: ClockMode;
  /**
   * What a running clock flows with: `Date.now` (the default, epoch ms) or a monotonic source
   * such as `performance.now`, for a clock that measures durations (see `durationClock`).
   */
  base?: () => number;
}

interface PendingTimer {
  id: TimerId;
  due: number;
  callback: () => void;
  real?: NodeJS.Timeout;
}

export class VirtualClock implements Clock {
  readonly mode: ClockMode;
  private readonly base: () => number;
  private offset: number;
  private frozenAt: number;
  private nextId = 1;
  private readonly timers = new Map<TimerId, PendingTimer>();

  constructor(options: VirtualClockOptions = {}) {
    this.mode = options.mode ?? 'frozen';
    this.base = options.base ?? Date.now;
    const start = options.start ?? this.base();
    this.frozenAt = start;
    this.offset = start - this.base();
  }

  now(): number {
    return this.mode === 'frozen' ? this.frozenAt : this.base() + this.offset;
  }

  /** Moves the clock forward by `ms` and fires every timer that falls due, in due order. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError('advance takes a finite, non-negative number of ms');
    return this.set(this.now() + ms);
  }

  /** Sets the clock to `epochMs` (never backwards) and fires what falls due. */
  set(epochMs: number): number {
    if (!Number.isFinite(epochMs)) throw new RangeError('set takes a finite epoch in ms');
    const target = Math.max(epochMs, this.now());
    for (;;) {
      const next = [...this.timers.values()]
        .filter((t) => t.due <= target)
        .sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.moveTo(next.due);
      this.fire(next);
    }
    this.moveTo(target);
    this.rearmRealTimers();
    return this.now();
  }

  setTimer(callback: () => void, delayMs: number): TimerId {
    const id = this.nextId++;
    const timer: PendingTimer = { id, due: this.now() + Math.max(0, delayMs), callback };
    this.timers.set(id, timer);
    this.armReal(timer);
    return id;
  }

  clearTimer(id: TimerId): void {
    const timer = this.timers.get(id);
    if (!timer) return;
    if (timer.real) clearTimeout(timer.real);
    this.timers.delete(id);
  }

  /** Number of timers not yet fired (the control plane shows it; tests check nothing leaks). */
  pendingTimers(): number {
    return this.timers.size;
  }

  /** Cancels every timer; called by the simulators' `close()`. */
  dispose(): void {
    for (const id of [...this.timers.keys()]) this.clearTimer(id);
  }

  private moveTo(epochMs: number): void {
    if (this.mode === 'frozen') this.frozenAt = epochMs;
    else this.offset = epochMs - this.base();
  }

  private fire(timer: PendingTimer): void {
    this.clearTimer(timer.id);
    timer.callback();
  }

  private armReal(timer: PendingTimer): void {
    if (this.mode !== 'running') return;
    if (timer.real) clearTimeout(timer.real);
    const delay = Math.max(0, timer.due - this.now());
    // Node fires a longer setTimeout after 1 ms (TimeoutOverflowWarning): an update scheduled
    // weeks ahead would run at once. Such a timer waits in steps and is re-armed in between.
    const capped = delay > MAX_REAL_DELAY_MS;
    const real = setTimeout(
      () => {
        if (!this.timers.has(timer.id)) return;
        if (capped) this.armReal(timer);
        else this.fire(timer);
      },
      capped ? MAX_REAL_DELAY_MS : delay,
    );
    real.unref();
    timer.real = real;
  }

  private rearmRealTimers(): void {
    for (const timer of this.timers.values()) this.armReal(timer);
  }
}

/**
 * A running clock on the monotonic `performance.now()`, for what a simulator times rather than
 * dates: how long a lookup's connection set-up and answer took, and its overall limit. Alone it is
 * real time. A harness that owns both ends of an exchange shares one with its reference endpoint,
 * which then lets a configured answer delay pass with `advance()` instead of sleeping: the
 * simulator measures the same duration, and timers due on the way (the overall limit) fire in
 * order. Only for one exchange at a time: a second one under way sees the skipped time as elapsed.
 */
export function durationClock(): VirtualClock {
  return new VirtualClock({ mode: 'running', base: () => performance.now() });
}
