import { encodeValue } from './url-template.ts';

/** What a masked secret reads as. */
export const MASK = '***';

/**
 * Replaces every known secret in text with `***` (issue 5, "Reliability": secrets never appear
 * in the log or the report). Each secret is also masked in the forms it may take on the wire:
 * URL-encoded, `encodeURIComponent`-encoded and, for user name and password, the Basic token.
 * Longer secrets are replaced first so one that contains another is masked whole.
 */
export class SecretMasker {
  private readonly forms: string[];

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
    this.forms = [...forms].filter((f) => f !== '').sort((a, b) => b.length - a.length);
  }

  mask(text: string): string {
    let out = text;
    for (const form of this.forms) out = out.split(form).join(MASK);
    return out;
  }

  /** Masks every string inside a JSON-like value (a copy). */
  maskValue<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.maskValue(v)) as T;
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.maskValue(v);
      return out as T;
    }
    return value;
  }
}
