import { encodeValue } from './url-template.ts';

/** What a masked secret reads as. */
export const MASK = '***';

/**
 * A secret this long or longer is masked wherever it occurs in a text; a shorter one only where it
 * stands as a token of its own. Searching text for a one-letter password turned `provide` into
 * `***rovide`, which gives the secret away (issue 20, item 19).
 */
export const MIN_SEARCHED_SECRET_LENGTH = 8;

/**
 * The second net for secrets in the log and the report (issue 5, "Reliability": secrets never
 * appear there). The first is structural: a secret is masked where the resolver uses it, in the
 * URL it builds (url-template.ts, `substitutedUrl`/`maskedUrl`), the fields of a provider it shows
 * (provider-config.ts, `maskProvider`) and the credentials it sends (never written). This one
 * catches what comes back from the other side (an endpoint echoing a secret in a body, a Location
 * header or an error): each secret in every form it takes on the wire (URL-encoded,
 * `encodeURIComponent`-encoded, and for user name and password the Basic token) is replaced by
 * `***`, anywhere when it has `MIN_SEARCHED_SECRET_LENGTH` characters or more, else only where it
 * stands alone (no letter or digit right before or after it), so ordinary words stay whole.
 * Longer secrets are replaced first so one that contains another is masked whole.
 */
export class SecretMasker {
  private readonly forms: { form: string; whole: RegExp | null }[];

  constructor(secrets: readonly string[], basic?: { username: string; password: string }) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      if (secret === '') continue;
      forms.add(secret);
      forms.add(encodeValue(secret));
      forms.add(encodeURIComponent(secret));
    }
    if (basic && basic.password !== '')
      forms.add(Buffer.from(`${basic.username}:${basic.password}`, 'utf8').toString('base64'));
    this.forms = [...forms]
      .filter((f) => f !== '')
      .sort((a, b) => b.length - a.length)
      .map((form) => ({
        form,
        whole:
          form.length >= MIN_SEARCHED_SECRET_LENGTH
            ? null
            : new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(form)}(?![\\p{L}\\p{N}])`, 'gu'),
      }));
  }

  mask(text: string): string {
    let out = text;
    for (const { form, whole } of this.forms)
      out = whole === null ? out.split(form).join(MASK) : out.replace(whole, MASK);
    return out;
  }

  /**
   * Masks every string inside a JSON-like value (a copy). With no secret to mask the value itself
   * is returned: copying it would change nothing (issue 31 §3: the copy of every provider outcome
   * was 2.6 % of a lookup's busy time).
   */
  maskValue<T>(value: T): T {
    return this.forms.length === 0 ? value : this.copyMasked(value);
  }

  private copyMasked<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.copyMasked(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.copyMasked(v);
      return out as T;
    }
    return value;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, (c) => `\\${c}`);
}
