/**
 * Collects work items during one event-loop turn and hands them over together: at `setImmediate`,
 * after the I/O callbacks of the turn have run, or at once when `maxItems` items or `maxWeight`
 * (e.g. bytes) are waiting, so a flood of input never piles up unbounded. The ingest listener
 * applies each batch in one transaction.
 */
export class TurnBatch<T> {
  private pending: T[] = [];
  private weight = 0;
  private scheduled: NodeJS.Immediate | null = null;

  constructor(
    private readonly run: (items: T[]) => void,
    private readonly maxItems: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  add(item: T, weight = 0): void {
    this.pending.push(item);
    this.weight += weight;
    if (this.pending.length >= this.maxItems || this.weight >= this.maxWeight) this.flush();
    else this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Hands over what is waiting now (also used at close). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    const items = this.pending;
    this.pending = [];
    this.weight = 0;
    if (items.length > 0) this.run(items);
  }
}
