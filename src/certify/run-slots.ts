/**
 * How many plug-in runs of this process go at once (issue 31 §1, §2): a certification's runs, and
 * the runs of every certification the process makes at the same time (the features' shared
 * certifications), take turns for {@link PLUGIN_RUN_SLOTS}. A run that mostly waits on purpose (the
 * slow answer, the answer held back past `{timeout}`) takes no slot: it overlaps the others.
 */
export class RunSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`run slots: ${limit} is not a count`);
  }

  /** Runs `task` once a slot is free (first come, first served); the slot is freed when it settles. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1;
    // A freed slot is handed to the first waiting task as it is: `active` stays counted.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }

  /** Runs taking a slot now, and tasks waiting for one. */
  load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}

/** Plug-in runs at once: one per core of the 2-core machines the budgets are set for. */
export const PLUGIN_RUNS_AT_ONCE = 2;

/** The slots every certification of this process shares. */
export const PLUGIN_RUN_SLOTS = new RunSlots(PLUGIN_RUNS_AT_ONCE);
