/**
 * Undoes the value encoding of the PBX sections (docs/agent-text-grammar.md, "Value encoding"):
 * `%XX` sequences that form valid UTF-8 are decoded; a `%` that does not start one stays as it is,
 * so text from other producers (`50%`) reads back unchanged.
 */
export function decodeValue(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A space-separated field: `-` stands for the empty string, otherwise as `decodeValue`. */
export function decodeToken(text: string): string {
  return text === '-' ? '' : decodeValue(text);
}
