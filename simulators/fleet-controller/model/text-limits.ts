/** FLEET-ITEM-SUBJECT-LIMIT: subjects longer than this are truncated. */
export const SUBJECT_MAX_CHARS = 200;
/** FLEET-ITEM-DESCRIPTION-LIMIT: descriptions longer than this are truncated. */
export const DESCRIPTION_MAX_CHARS = 4000;
/** FLEET-ACK-COMMENT-MAX, FLEET-ERR-400-COMMENT-TOO-LONG, MCP-ACK-COMMENT-MAX: longer comments are refused. */
export const COMMENT_MAX_CHARS = 1000;

/**
 * Number of characters of `text` as the fleet limits count them.
 *
 * FLEET-UNSPEC-CHARACTER-COUNT: the simulator counts Unicode code points, so an astral character
 * (an emoji, U+1F600) is one character although it takes two UTF-16 code units. A lone surrogate
 * counts as one character. Grapheme clusters are not considered: a flag or a ZWJ sequence counts
 * as several characters.
 */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * `text` cut to at most `max` characters (code points, see `charCount`), without any marker
 * (FLEET-UNSPEC-CHARACTER-COUNT). A string within the limit is returned unchanged; a surrogate pair
 * is never split.
 */
export function truncateChars(text: string, max: number): string {
  // Fast path: a string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return text;
  let units = 0;
  let count = 0;
  for (const ch of text) {
    if (count === max) return text.slice(0, units);
    units += ch.length;
    count++;
  }
  return text;
}
