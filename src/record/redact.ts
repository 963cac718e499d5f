import { createHmac, randomBytes } from 'node:crypto';

/** What a redacted value was. */
export type RedactionKind = 'credential' | 'host' | 'serial' | 'address' | 'user' | 'phone' | 'channel';

/** An extra pattern from a rule file (schemas/redaction-rules.schema.json). */
export interface RedactionRule {
  name: string;
  /** A JavaScript regular expression (no flags; matched globally). */
  pattern: string;
  /** The pseudonym shape to use; default `user`. */
  kind?: RedactionKind;
}

const WORD_PREFIX: Record<Exclude<RedactionKind, 'address' | 'phone' | 'channel'>, string> = {
  credential: 'cred',
  host: 'host',
  serial: 'serial',
  user: 'user',
};

/** A pseudonym this redactor (with any key) writes; such a value is never redacted again. */
const PSEUDONYM_WORD = /^(?:cred|host|serial|user|chan)-[0-9a-f]{8}(?:@example\.invalid)?$/;
const IPV4 = /(?<![\d.])(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}(?![\d.])/g;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
/** Addresses that name no device: any, broadcast, masks. */
const NEUTRAL_ADDRESSES = new Set([
  '0.0.0.0',
  '255.255.255.255',
  '255.255.255.0',
  '255.255.0.0',
  '255.0.0.0',
]);

/**
 * Redaction as part of recording (issue 23): every sensitive value becomes a deterministic
 * pseudonym (keyed HMAC-SHA-256), the same value the same pseudonym in every face of the
 * recording (agent text, XML, JSON, XML-RPC, headers). Shapes are kept so the project's parsers
 * still read the result: an address stays an IPv4 address (in 198.18.0.0/15, the benchmarking
 * range no device uses), a phone number keeps its length and leading `+`/`0`s and starts with
 * `999`, a channel keeps its technology prefix. A pseudonym is never redacted again, so recording a
 * replay of a recording gives the same bytes. A value followed by a run of spaces (a fixed-width
 * column) keeps the column: the run grows or shrinks by the length difference.
 *
 * Known values (`addLiteral`) are replaced wherever they occur; IPv4 addresses, e-mail addresses
 * and the rule file's patterns are found anywhere. `protect` keeps values that only look like an
 * address (a dotted version `12.4.1.3`).
 */
export class Redactor {
  private readonly literals = new Map<string, string>();
  private readonly literalKinds = new Map<string, string>();
  private readonly protectedValues = new Set<string>();
  private readonly counter = new Map<string, number>();

  constructor(
    private readonly key: Buffer = randomBytes(32),
    private readonly rules: RedactionRule[] = [],
  ) {
    for (const rule of rules) new RegExp(rule.pattern, 'g');
  }

  /** A value that must not be taken for an address (e.g. a version number). */
  protect(value: string): void {
    if (value) this.protectedValues.add(value);
  }

  /** A sensitive value to replace wherever it occurs, with the pseudonym of its kind. */
  addLiteral(value: string | undefined | null, kind: RedactionKind): void {
    if (!value || value.length < 2 || this.isPseudonym(value, kind) || this.literals.has(value)) return;
    if (kind === 'address' && NEUTRAL_ADDRESSES.has(value)) return;
    if (this.protectedValues.has(value)) return;
    const pseudonym = this.pseudonym(value, kind);
    for (const form of escapedForms(value)) {
      if (this.literals.has(form)) continue;
      this.literals.set(form, pseudonym);
      this.literalKinds.set(form, kind);
    }
  }

  /** The pseudonym of a value (without counting it). */
  pseudonym(value: string, kind: RedactionKind): string {
    const digest = createHmac('sha256', this.key).update(`${kind}\0${value}`).digest();
    const hex = digest.toString('hex').slice(0, 8);
    switch (kind) {
      case 'address': {
        const n = digest.readUInt32BE(0) % (1 << 17);
        return `198.${18 + (n >> 16)}.${(n >> 8) & 0xff}.${n & 0xff}`;
      }
      case 'phone': {
        const lead = /^(\+|0*)/.exec(value)?.[0] ?? '';
        const digits = value.slice(lead.length).replace(/\D/g, '');
        let fill = '';
        for (let i = 0; fill.length < Math.max(0, digits.length - 3); i++)
          fill += String(digest[i % 32]! % 10);
        return `${lead}${`999${fill}`.slice(0, Math.max(3, digits.length))}`;
      }
      case 'channel': {
        const slash = value.indexOf('/');
        return `${slash > 0 ? value.slice(0, slash) : 'CHAN'}/chan-${hex}`;
      }
      default:
        if (kind === 'user' && value.includes('@')) return `user-${hex}@example.invalid`;
        return `${WORD_PREFIX[kind]}-${hex}`;
    }
  }

  /** Redacts a text: known values first (longest first), then addresses, e-mail addresses and rules. */
  apply(text: string): string {
    let result = text;
    const known = [...this.literals.keys()].sort((a, b) => b.length - a.length);
    if (known.length > 0) {
      const pattern = new RegExp(
        `(?<![A-Za-z0-9])(${known.map(escapeRegExp).join('|')})(?![A-Za-z0-9])( {2,})?`,
        'g',
      );
      result = result.replace(pattern, (_match, value: string, spaces: string | undefined) => {
        const replacement = this.literals.get(value) ?? value;
        this.count(this.literalKinds.get(value) ?? 'user');
        return replacement + keepColumn(value, replacement, spaces);
      });
    }
    result = result.replace(new RegExp(`${IPV4.source}( {2,})?`, 'g'), (match: string) => {
      const spaces = /( {2,})$/.exec(match)?.[1];
      const value = spaces ? match.slice(0, -spaces.length) : match;
      if (
        this.protectedValues.has(value) ||
        NEUTRAL_ADDRESSES.has(value) ||
        this.isPseudonym(value, 'address')
      )
        return match;
      const replacement = this.pseudonym(value, 'address');
      this.count('address');
      return replacement + keepColumn(value, replacement, spaces);
    });
    result = result.replace(EMAIL, (value) => {
      if (this.isPseudonym(value, 'user')) return value;
      this.count('user');
      return this.pseudonym(value, 'user');
    });
    for (const rule of this.rules) {
      result = result.replace(new RegExp(rule.pattern, 'g'), (value) => {
        const kind = rule.kind ?? 'user';
        if (value === '' || this.isPseudonym(value, kind)) return value;
        this.count(`rule:${rule.name}`);
        return this.pseudonym(value, kind);
      });
    }
    return result;
  }

  /** Replacements made so far, by kind (and `rule:<name>`). */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.counter.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  private count(kind: string): void {
    this.counter.set(kind, (this.counter.get(kind) ?? 0) + 1);
  }

  private isPseudonym(value: string, kind: RedactionKind): boolean {
    if (kind === 'address') {
      const parts = value.split('.').map(Number);
      return parts.length === 4 && parts[0] === 198 && (parts[1] === 18 || parts[1] === 19);
    }
    if (kind === 'phone') return /^(\+|0*)999\d*$/.test(value);
    if (kind === 'channel') return /\/chan-[0-9a-f]{8}$/.test(value);
    return PSEUDONYM_WORD.test(value);
  }
}

/** The run of spaces after a replaced value, resized so the next column starts where it did. */
function keepColumn(value: string, replacement: string, spaces: string | undefined): string {
  if (!spaces) return '';
  return ' '.repeat(Math.max(1, spaces.length + value.length - replacement.length));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** XML- and JSON-escaped spellings of a value, so a literal is found in every face. */
export function escapedForms(value: string): string[] {
  const xml = value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  const json = JSON.stringify(value).slice(1, -1);
  return [...new Set([value, xml, json])];
}
