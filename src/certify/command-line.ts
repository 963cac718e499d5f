import { basename } from 'node:path';

/**
 * The plug-in's command line: split without a shell, placeholders filled per scenario, and the
 * secret-derived `{auth}` value kept out of everything that is shown.
 */

/** Placeholders a plug-in command line may use, filled per scenario. */
export const PLACEHOLDERS = ['host', 'port', 'web', 'xmlrpc', 'login', 'auth', 'timeout'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type PlaceholderValues = Record<Placeholder, string>;

/** Placeholders whose values are secrets (secret-derived credentials): shown only as their name. */
const SECRET_PLACEHOLDERS: readonly Placeholder[] = ['auth'];

/** Interpreters a plug-in command may start with; the plug-in is then the script after it. */
const INTERPRETER = /^(python[0-9.]*|perl|ruby|node|bash|sh|php|pwsh|java)$/;

/**
 * The script of a plug-in command that starts with an interpreter (`python3 check.py -H {host}` →
 * `check.py`): the vendor's file, not the interpreter. `null` when the command starts with the
 * plug-in itself. One rule for the plug-in's default name and the file its certificate names.
 */
export function interpretedScript(argv: readonly string[]): string | null {
  const [first, second] = argv;
  if (first === undefined || second === undefined || second.startsWith('-')) return null;
  return INTERPRETER.test(basename(first)) ? second : null;
}

/**
 * Splits a command line into argv the way a POSIX shell splits words, without running a shell and
 * without expansions: blanks separate words; `'…'` keeps everything literally; `"…"` keeps
 * everything but `\"` and `\\`; outside quotes a backslash escapes the next character. Nothing
 * else is special (no `$`, globs, pipes or redirections: they are literal characters).
 * Throws on an unterminated quote or a trailing backslash.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote in the plug-in command');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i += 1;
      inWord = true;
      for (;;) {
        if (i >= line.length) throw new Error('unterminated double quote in the plug-in command');
        const d = line[i] as string;
        if (d === '"') break;
        if (d === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i += 1;
        }
      }
      i += 1;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new Error('trailing backslash in the plug-in command');
      word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const PLACEHOLDER_PATTERN = /\{([a-z]+)\}/g;

/** The placeholder names in `argv` that are not known (a typo such as `{hots}`). */
export function unknownPlaceholders(argv: readonly string[]): string[] {
  const unknown = new Set<string>();
  for (const arg of argv) {
    for (const match of arg.matchAll(PLACEHOLDER_PATTERN)) {
      const name = match[1] as string;
      if (!(PLACEHOLDERS as readonly string[]).includes(name)) unknown.add(`{${name}}`);
    }
  }
  return [...unknown];
}

/** `argv` with every known placeholder replaced by its value (unknown ones stay as written). */
export function fillPlaceholders(argv: readonly string[], values: PlaceholderValues): string[] {
  return argv.map((arg) =>
    arg.replace(PLACEHOLDER_PATTERN, (whole, name: string) =>
      (PLACEHOLDERS as readonly string[]).includes(name) ? values[name as Placeholder] : whole,
    ),
  );
}

/**
 * The command as shown in reports and evidence: the template with the non-secret placeholders
 * filled and the secret ones left as their name (`{auth}`), each word quoted when needed so the
 * line can be pasted into a shell.
 */
export function displayCommand(argv: readonly string[], values: PlaceholderValues): string {
  const shown = { ...values };
  for (const name of SECRET_PLACEHOLDERS) shown[name] = `{${name}}`;
  return fillPlaceholders(argv, shown).map(shellQuote).join(' ');
}

/** Removes every secret placeholder's value (and its URL-encoded form) from `text`. */
export function redactSecrets(text: string, values: PlaceholderValues): string {
  let result = text;
  for (const name of SECRET_PLACEHOLDERS) {
    const secret = values[name];
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      result = result.split(form).join(`{${name}}`);
    }
    // A secret is `<login>:<hex>`: its hex part alone must not show either.
    const hex = secret.slice(secret.indexOf(':') + 1);
    if (hex.length >= 16) result = result.split(hex).join(`{${name}}`);
  }
  return result;
}

/** Quotes a word for a POSIX shell when it holds anything but safe characters. */
export function shellQuote(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
