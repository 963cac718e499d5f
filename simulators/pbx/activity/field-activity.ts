import type { TimerId } from '../../shared/clock.ts';
import type { Severity } from '../../shared/wire/severity.ts';
import type { PbxStore } from '../state/store.ts';
import type { PbxState } from '../state/types.ts';

/** One step of field activity: every PBX changes once per virtual minute. */
export const ACTIVITY_TICK_MS = 60_000;

/** Backup runs kept per target while activity adds new ones. */
const MAX_BACKUP_RUNS = 10;

export interface FieldActivityOptions {
  /** Everything the activity does follows from this seed, the site id and the PBX clock. */
  seed: string;
  /** Attention events a PBX raises per (virtual) hour on average; default 1. */
  eventsPerHour?: number;
  /** Event storms per PBX and (virtual) day on average; default 0.5. */
  stormsPerDay?: number;
  /** Events in one storm; default 250 (beyond the forwarding limit and the controller's 200-message cap). */
  stormSize?: number;
}

export interface FieldActivityStatus {
  on: boolean;
  seed: string | null;
  siteId: string | null;
  eventsPerHour: number;
  stormsPerDay: number;
  stormSize: number;
  /** Minutes simulated since the activity started. */
  ticks: number;
  eventsRaised: number;
  storms: number;
  backupRuns: number;
  backupFailures: number;
}

/** 32-bit FNV-1a of a string. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** mulberry32: a small, fast, seedable PRNG; the same seed gives the same numbers everywhere. */
export function seededRandom(seed: string): () => number {
  let a = fnv1a(seed);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Events in one tick for a mean of `mean` (Poisson, by inversion; `mean` is small). */
function poisson(random: () => number, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let p = random();
  while (p > limit && k < 1000) {
    k++;
    p *= random();
  }
  return k;
}

/** Share of the day's peak traffic at `epochMs` (UTC): quiet at night, highest early afternoon. */
export function dayCurve(epochMs: number): number {
  const hour = (epochMs / 3_600_000) % 24;
  return 0.05 + 0.95 * Math.max(0, Math.sin((Math.PI * (hour - 7)) / 12));
}

const EVENT_SUBJECTS: { module: string; subject: string; severity: Severity }[] = [
  { module: 'Backup', subject: 'Backup target not reachable', severity: 'ERROR' },
  { module: 'SIP Provider', subject: 'Trunk registration lost', severity: 'WARNING' },
  { module: 'Voicemail', subject: 'Mailbox storage nearly full', severity: 'WARNING' },
  { module: 'Licence', subject: 'Licence check postponed', severity: 'INFO' },
  { module: 'Database', subject: 'Slow query detected', severity: 'WARNING' },
  { module: 'Telephony', subject: 'Channel limit reached', severity: 'CRITICAL' },
];

/**
 * Where field activity raises its attention events: the PBX's own forwarder (events/), given by the
 * PBX's assembly so that this face imports no other.
 */
export interface AttentionRaiser {
  raise(event: {
    module: string;
    subject: string;
    severity: Severity;
    description?: string;
    at?: number;
  }): unknown;
}

/**
 * `--activity field` (issue 22): makes one PBX change over its virtual time the way a real one
 * does, deterministically from a seed. Once per virtual minute (a timer on the PBX clock, so a
 * frozen clock stops it and `advance` drives it) it: registers and drops phones and lets channels
 * and calls follow the day's curve; runs each backup target nightly at 02:00, now and then
 * failing; flaps trunks; drifts free RAM; now and then offers an update; and raises attention
 * events through the PBX's own forwarder (and so its limiter, buffer and ingest link) at
 * `eventsPerHour`, with storms of `stormSize` at `stormsPerDay`. Each minute's draws come from
 * `seed`, the site id and the minute itself, so two runs with the same seed and clock agree
 * event for event. A reset of the PBX stops it.
 *
 * On a running clock each PBX takes its minute's step at its own point in the minute (a phase
 * from seed and site id; issue 31 §4): 100,000 PBXs stepping in the same millisecond held every
 * process of a sharded fleet busy for seconds once a minute, and every answer waited behind them.
 * The step still describes its minute (`at` is the minute's start), so what happens is the same.
 */
export class FieldActivity {
  private options: Required<FieldActivityOptions> | null = null;
  private siteId = '';
  private timer: TimerId | null = null;
  /** Where in the minute this PBX takes its step on a running clock (`phaseMs`). */
  private phase = 0;
  private counters = { ticks: 0, eventsRaised: 0, storms: 0, backupRuns: 0, backupFailures: 0 };

  constructor(
    private readonly store: PbxStore,
    private readonly forwarder: AttentionRaiser,
  ) {
    store.on('reset', () => this.stop());
  }

  start(options: FieldActivityOptions & { siteId?: string }): void {
    this.stop();
    this.options = {
      seed: options.seed,
      eventsPerHour: options.eventsPerHour ?? 1,
      stormsPerDay: options.stormsPerDay ?? 0.5,
      stormSize: options.stormSize ?? 250,
    };
    this.siteId = options.siteId ?? this.store.read().appliance.serial;
    this.phase = fnv1a(`${options.seed}|${this.siteId}|phase`) % ACTIVITY_TICK_MS;
    this.counters = { ticks: 0, eventsRaised: 0, storms: 0, backupRuns: 0, backupFailures: 0 };
    this.arm();
  }

  stop(): void {
    if (this.timer !== null) this.store.clock.clearTimer(this.timer);
    this.timer = null;
    this.options = null;
  }

  status(): FieldActivityStatus {
    const o = this.options;
    return {
      on: o !== null,
      seed: o?.seed ?? null,
      siteId: o ? this.siteId : null,
      eventsPerHour: o?.eventsPerHour ?? 0,
      stormsPerDay: o?.stormsPerDay ?? 0,
      stormSize: o?.stormSize ?? 0,
      ...this.counters,
    };
  }

  /**
   * Each minute's step is taken at the minute plus this PBX's phase when the clock runs by itself
   * (0 on a frozen clock, which `advance` drives minute by minute as before). It describes the
   * minute all the same (`at` is the minute's start), so the draws do not depend on it.
   */
  private phaseMs(): number {
    return this.store.clock.mode === 'running' ? this.phase : 0;
  }

  private arm(): void {
    const now = this.store.clock.now();
    const phase = this.phaseMs();
    const minute = (Math.floor((now - phase) / ACTIVITY_TICK_MS) + 1) * ACTIVITY_TICK_MS;
    this.timer = this.store.clock.setTimer(
      () => {
        this.timer = null;
        this.tick(minute);
        if (this.options) this.arm();
      },
      minute + phase - now,
    );
  }

  private tick(at: number): void {
    const o = this.options;
    if (!o) return;
    this.counters.ticks++;
    const random = seededRandom(`${o.seed}|${this.siteId}|${at}`);
    const curve = dayCurve(at);
    const minuteOfDay = Math.floor((at % 86_400_000) / 60_000);
    let update: ((s: PbxState) => void)[] = [];
    // Phones register and drop; channels and calls follow the day.
    const phoneShare = 0.85 + 0.15 * curve - 0.05 * random();
    const calls = Math.round(curve * 12 * (0.7 + 0.6 * random()));
    update.push((s) => {
      s.sip.onlinePhones = Math.max(
        0,
        Math.min(s.sip.knownPhones, Math.round(s.sip.knownPhones * phoneShare)),
      );
      s.traffic.linkedCalls = calls;
      s.rtp.activeChannels = Math.min(s.channels.max, calls * 2);
      s.accounts.ringing = Math.round(calls / 3);
    });
    // Nightly backups at 02:00, each target now and then failing.
    if (minuteOfDay === 120) {
      const results = this.store.read().backups.map(() => random() < 0.05);
      update.push((s) => {
        s.backups.forEach((backup, i) => {
          const failed = results[i] ?? false;
          backup.runs = [
            ...backup.runs.slice(-(MAX_BACKUP_RUNS - 1)),
            { time: at, result: failed ? 'de.vendor.backup.mountfail' : 'de.vendor.backup.successful' },
          ];
          backup.message = failed ? 'Backup target could not be mounted' : 'Backup completed successfully';
        });
      });
      this.counters.backupRuns += results.length;
      this.counters.backupFailures += results.filter(Boolean).length;
    }
    // Trunks flap; RAM drifts; an update appears now and then.
    const flap = random() < 0.002;
    const drift = (random() - 0.5) * 0.02;
    const offerUpdate = random() < 1 / (14 * 1440);
    update.push((s) => {
      if (flap && s.sipProviders.length > 0) {
        const provider = s.sipProviders[Math.floor(random() * s.sipProviders.length)];
        if (provider) provider.registered = !provider.registered;
      }
      const available = s.os.memAvailableBytes + Math.round(drift * s.os.memTotalBytes);
      s.os.memAvailableBytes = Math.max(
        Math.round(s.os.memTotalBytes * 0.05),
        Math.min(s.os.memTotalBytes, available),
      );
      if (offerUpdate && s.update.kind === 'none') s.update.kind = 'minor';
    });
    this.store.update((s) => {
      for (const change of update) change(s);
    });
    update = [];
    // Attention events, and now and then a storm.
    let events = poisson(random, o.eventsPerHour / 60);
    if (random() < o.stormsPerDay / 1440) {
      events += o.stormSize;
      this.counters.storms++;
    }
    for (let i = 0; i < events; i++) {
      const kind = EVENT_SUBJECTS[Math.floor(random() * EVENT_SUBJECTS.length)] ?? EVENT_SUBJECTS[0]!;
      this.forwarder.raise({ ...kind, description: `field activity, minute ${minuteOfDay}`, at });
      this.counters.eventsRaised++;
    }
  }
}
