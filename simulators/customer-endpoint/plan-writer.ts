import type { ServerResponse } from 'node:http';
import type { VirtualClock } from '../shared/clock.ts';
import type { ResponsePlan } from './answer-request.ts';
import type { RecordedRequest } from './recorded-request.ts';

const ENDLESS_CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Writes the answers the socket-free `EndpointCore` plans: at once or after a delay, whole, cut
 * mid-body, endless, dripping, or never. Owns the timers of delays and drips, so `close()` stops
 * every answer still under way.
 *
 * With a `sharedClock` (the duration clock of an embedded PBX the harness also owns), an answer
 * delay passes on that clock: it is advanced by the delay, which fires whatever falls due on the
 * way (the lookup's overall limit), and the answer is written at once. The PBX measures the
 * same delay it would measure in real time (RESOLVER-TIMEOUT-WARNING, RESOLVER-SLOW-NOT-ABORTED).
 */
export class PlanWriter {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing = false;

  constructor(private readonly sharedClock?: VirtualClock) {}

  /** Writes `plan` to `res` (after its delay) and notes status and content coding in `record`. */
  write(plan: ResponsePlan, res: ServerResponse, record: RecordedRequest): void {
    if (plan.delayMs > 0 && this.sharedClock) {
      this.sharedClock.advance(plan.delayMs);
      this.run(plan, res, record);
    } else if (plan.delayMs > 0) this.later(() => this.run(plan, res, record), plan.delayMs);
    else this.run(plan, res, record);
  }

  close(): void {
    this.closing = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private later(fn: () => void, ms: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    this.timers.add(timer);
  }

  private run(plan: ResponsePlan, res: ServerResponse, record: RecordedRequest): void {
    if (this.closing || res.destroyed) return;
    if (plan.stream === 'never') return;
    record.status = plan.status;
    const codings = plan.headers.filter(([name]) => name.toLowerCase() === 'content-encoding');
    record.responseContentEncoding = codings.length ? codings.map(([, value]) => value).join(', ') : null;
    for (const [name, value] of plan.headers) res.appendHeader(name, value);
    if (plan.stream === 'once') {
      res.setHeader('Content-Length', plan.body.length);
      res.writeHead(plan.status);
      res.end(plan.body);
      return;
    }
    if (plan.stream === 'close-mid-body') {
      res.setHeader('Content-Length', plan.body.length);
      res.writeHead(plan.status);
      res.write(plan.body.subarray(0, Math.floor(plan.body.length / 2)), () => res.socket?.destroy());
      return;
    }
    res.writeHead(plan.status);
    if (plan.stream === 'endless') {
      const pump = () => {
        while (!this.closing && !res.destroyed && res.write(ENDLESS_CHUNK)) {
          /* keep writing until the socket pushes back */
        }
        if (!this.closing && !res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    const drip = () => {
      if (this.closing || res.destroyed) return;
      res.write('x');
      this.later(drip, plan.dripIntervalMs);
    };
    drip();
  }
}
