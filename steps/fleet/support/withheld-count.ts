import { type FleetContext, type ItemView, matches } from './fleet-context.ts';
import type { PbxPlane } from './fleet-target.ts';

/** How far the PBX clock moves on before each round of reports while waiting for withheld counts. */
export const WITHHELD_ROUND_MS = 10 * 60_000;
/** Rounds before the harness gives up waiting: two hours of PBX time. */
export const WITHHELD_ROUNDS = 12;

/** One message's reports as the scenario raised them and as the controller counts them. */
export interface WithheldTally {
  label: string;
  /** Reports the scenario raised for the message on its PBX. */
  raised: number;
  /** The message's item as the partner's open list showed it last, if at all. */
  item: ItemView | undefined;
}

/**
 * The reports of a message the PBX withheld: raised but never received by the controller. With a
 * partner released and the link up a report is either forwarded (`occurrences`) or withheld, so this
 * is what `suppressed` must equal (FLEET-ITEM-SUPPRESSED, EVENT-THROTTLE-SUPPRESSED). `undefined`
 * while no item shows the message.
 */
export function withheldReports(tally: WithheldTally): number | undefined {
  return tally.item === undefined ? undefined : tally.raised - tally.item.occurrences;
}

/**
 * Whether the message's withheld count has arrived at the controller: `suppressed` has reached the
 * reports withheld so far (or gone past them, which the final check then reports).
 * EVENT-UNSPEC-THROTTLE-ALGORITHM leaves open when the count travels, so only its arrival is awaited.
 */
export function withheldArrived(tally: WithheldTally): boolean {
  const withheld = withheldReports(tally);
  return withheld !== undefined && tally.item !== undefined && tally.item.suppressed >= withheld;
}

/** Why a message's `suppressed` is not exactly its withheld reports, or `null`. */
export function withheldProblem(tally: WithheldTally, rounds: number): string | null {
  const withheld = withheldReports(tally);
  if (withheld === undefined || tally.item === undefined) return `"${tally.label}" is not listed`;
  if (tally.item.suppressed === withheld) return null;
  const waited = `after ${rounds} round(s) of ${WITHHELD_ROUND_MS / 60_000} PBX minutes`;
  return `"${tally.label}": suppressed is ${tally.item.suppressed}, but ${withheld} of its ${tally.raised} reports were withheld (occurrences ${tally.item.occurrences}; ${waited})`;
}

/** The tallies of the messages `labels` (all on one site) as the partner's open list shows them now. */
export async function withheldTallies(
  fleet: FleetContext,
  labels: readonly string[],
): Promise<WithheldTally[]> {
  const siteId = fleet.message(labels[0] ?? '').siteId;
  const open = await fleet.openItems('partner', siteId, { evidence: false });
  return labels.map((label) => {
    const message = fleet.message(label);
    return { label, raised: message.reportedAt.length, item: open.find((i) => matches(i, message)) };
  });
}

/**
 * Waits for the withheld counts of the messages `labels` to reach the controller, as far as the spec
 * lets the harness know when that is (EVENT-UNSPEC-THROTTLE-ALGORITHM: not stated). Round by round
 * it moves the PBX clock on by ten minutes and reports each message whose count has not arrived
 * again (so a limiter that sends counts with a later report, or on a timer, both get their chance),
 * until every count has arrived or `WITHHELD_ROUNDS` rounds have passed. Returns the last tallies
 * and the number of rounds; the caller judges them with `withheldProblem`.
 */
export async function awaitWithheldCounts(
  fleet: FleetContext,
  plane: PbxPlane,
  labels: readonly string[],
): Promise<{ tallies: WithheldTally[]; rounds: number }> {
  let tallies = await withheldTallies(fleet, labels);
  let rounds = 0;
  while (rounds < WITHHELD_ROUNDS && !tallies.every(withheldArrived)) {
    rounds++;
    await plane.control.advanceClock({ ms: WITHHELD_ROUND_MS });
    for (const tally of tallies) {
      if (withheldArrived(tally)) continue;
      const message = fleet.message(tally.label);
      await fleet.raise(tally.label, message.siteId, {
        module: message.module,
        subject: message.subject,
        severity: message.severity,
        ...(message.moduleId !== undefined ? { moduleId: message.moduleId } : {}),
        ...(message.description !== undefined ? { description: message.description } : {}),
      });
    }
    tallies = await withheldTallies(fleet, labels);
  }
  return { tallies, rounds };
}
