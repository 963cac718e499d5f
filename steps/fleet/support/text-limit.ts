/** Length in Unicode code points. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Why `shown` is not `sent` under a limit of `limit` characters, or `null` when it is
 * (FLEET-ITEM-SUBJECT-LIMIT, FLEET-ITEM-DESCRIPTION-LIMIT).
 *
 * FLEET-UNSPEC-CHARACTER-COUNT: the unit of the limit (code points or UTF-16 units) and a marker at
 * the cut are not stated. So a text within the limit in both units must come back unchanged; a text
 * over it in both units must come back with exactly `limit` characters in one of the two units and
 * start with the first half of what was sent (a marker may replace the end); a text whose fate
 * depends on the unit is not judged.
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
  if (shown.length !== limit && codePoints(shown) !== limit) {
    return `a text of ${codePoints(sent)} characters came back with ${codePoints(shown)} code points (${shown.length} UTF-16 units), not cut to ${limit}`;
  }
  const head = Math.floor(limit / 2);
  if ([...shown].slice(0, head).join('') !== [...sent].slice(0, head).join('')) {
    return `the cut text does not start with the first ${head} characters that were sent`;
  }
  return null;
}

function describe(shown: string | undefined): string {
  return shown === undefined ? 'missing' : `${codePoints(shown)} code points`;
}
