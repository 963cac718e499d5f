/** One line of a face as shown: its text and whether it changed since the previous fetch. */
export interface ShownLine {
  text: string;
  changed: boolean;
}

/**
 * The lines of `now`, each marked changed when it is not part of the longest common subsequence
 * with `before` (a line diff). Long bodies beyond the table bound fall back to comparing line by
 * line at the same position, so a huge answer never stalls the page.
 */
export function markChanges(before: string | null, now: string): ShownLine[] {
  const next = now.split('\n');
  if (before === null) return next.map((text) => ({ text, changed: false }));
  const prev = before.split('\n');
  if (prev.length * next.length > 4_000_000)
    return next.map((text, i) => ({ text, changed: prev[i] !== text }));
  const rows = prev.length + 1;
  const cols = next.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = prev.length - 1; i >= 0; i--) {
    for (let j = next.length - 1; j >= 0; j--) {
      table[i * cols + j] =
        prev[i] === next[j]
          ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
    }
  }
  const shown: ShownLine[] = [];
  let i = 0;
  let j = 0;
  while (j < next.length) {
    if (i < prev.length && prev[i] === next[j]) {
      shown.push({ text: next[j] ?? '', changed: false });
      i++;
      j++;
    } else if (i < prev.length && (table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0)) i++;
    else {
      shown.push({ text: next[j] ?? '', changed: true });
      j++;
    }
  }
  return shown;
}
