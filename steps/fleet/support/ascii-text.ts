const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A printable ASCII text of exactly `length` characters, different at every position so a cut
 * shows where it happened. ASCII keeps the length the same in code points and UTF-16 units
 * (FLEET-UNSPEC-CHARACTER-COUNT). `salt` makes texts of equal length differ.
 */
export function asciiText(length: number, salt = 0): string {
  let text = '';
  for (let i = 0; i < length; i++) {
    text +=
      i % 10 === 9 ? ' ' : (ALPHABET[(i * 7 + salt * 13 + Math.floor(i / 62)) % ALPHABET.length] ?? 'x');
  }
  return text;
}
