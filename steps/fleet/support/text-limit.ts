/** Length in Unicode code points. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Characters at the end of a cut text that may differ from what was sent: room for a truncation
 * marker such as `…` or `...` (FLEET-UNSPEC-CHARACTER-COUNT leaves open whether there is one).
 */
export const MARKER_ALLOWANCE = 3;

/**
 * Why `shown` is not `sent` under a limit of `limit` characters, or `null` when it is
 * (FLEET-ITEM-SUBJECT-LIMIT, FLEET-ITEM-DESCRIPTION-LIMIT).
 *
 * FLEET-UNSPEC-CHARACTER-COUNT: the unit of the limit (code points or UTF-16 units) and a marker at
 * the cut are not stated. So a text within the limit in both units must come back unchanged; a text
 * over it in both units must come back with exactly `limit` characters in one of the two units and,
 * in that unit, agree with what was sent in all but its last `MARKER_ALLOWANCE` characters (a marker
 * may replace them; a marker appended beyond the limit would break it); a text whose fate depends
 * on the unit is not judged.
 */
export function limitProblem(shown: string | undefined, sent: string, limit: number): string | null {
  const within = sent.length <= limit && codePoints(sent) <= limit;
  const over = sent.length > limit && codePoints(sent) > limit;
  if (within) {
    if (shown === sent) return null;
    return `a text of ${codePoints(sent)} characters came back changed (${describe(shown)})`;
  }
  if (!over) return null;
  if (shown === undefined) return `a text of ${codePoints(sent)} characters came back missing`;
  const byCodePoints = codePoints(shown) === limit;
  const byUnits = shown.length === limit;
  if (!byCodePoints && !byUnits) {
    return `a text of ${codePoints(sent)} characters came back with ${codePoints(shown)} code points (${shown.length} UTF-16 units), not cut to ${limit}`;
  }
  const head = limit - MARKER_ALLOWANCE;
  const keptCodePoints =
    byCodePoints && [...shown].slice(0, head).join('') === [...sent].slice(0, head).join('');
  const keptUnits = byUnits && shown.slice(0, head) === sent.slice(0, head);
  if (!keptCodePoints && !keptUnits) {
    return `the cut text does not start with the first ${head} characters that were sent (only the last ${MARKER_ALLOWANCE} may differ, for a marker)`;
  }
  return null;
}

function describe(shown: string | undefined): string {
  return shown === undefined ? 'missing' : `${codePoints(shown)} code points`;
}
