import fc from 'fast-check';
import type { Finding } from '../types.ts';
import type { WireAnswer } from '../wire.ts';

/**
 * The checks every answer gets: an answer or a close within the bound (else `hang`), the server
 * reachable (else `crash`), and no 5xx status (the spec names 5xx for none of the generated inputs).
 */
export function baseFinding(answer: WireAnswer): Finding | null {
  if (answer.ending === 'timeout') {
    return {
      kind: 'hang',
      message: `neither an answer nor a close within the bound (${Math.round(answer.ms)} ms, ${answer.bytes.length} bytes so far)`,
    };
  }
  if (answer.ending === 'refused')
    return { kind: 'crash', message: 'connection refused: the server is gone' };
  if (answer.http && answer.http.status >= 500) {
    return { kind: '5xx', message: `HTTP ${answer.http.status}: ${preview(answer.http.body)}` };
  }
  return null;
}

export function mismatch(message: string): Finding {
  return { kind: 'mismatch', message };
}

/** The answer is HTTP with `status` and, when given, exactly `body`. */
export function expectHttp(answer: WireAnswer, status: number, body?: string): Finding | null {
  const base = baseFinding(answer);
  if (base) return base;
  if (!answer.http) return mismatch(`expected HTTP ${status}, got ${describeAnswer(answer)}`);
  if (answer.http.status !== status)
    return mismatch(`expected HTTP ${status}, got ${answer.http.status}: ${preview(answer.http.body)}`);
  if (body !== undefined && answer.http.body.toString('utf8') !== body)
    return mismatch(`expected the body ${body}, got ${preview(answer.http.body)}`);
  return null;
}

export function describeAnswer(answer: WireAnswer): string {
  if (answer.http) return `HTTP ${answer.http.status}`;
  if (answer.bytes.length === 0) return `a close without a byte (${answer.ending})`;
  return `${answer.bytes.length} bytes that are not HTTP: ${preview(answer.bytes)}`;
}

/** The first 120 bytes, printable. */
export function preview(bytes: Buffer): string {
  return JSON.stringify(bytes.subarray(0, 120).toString('latin1')) + (bytes.length > 120 ? '…' : '');
}

/** Text from any code points, control characters and XML/HTTP specials included. */
export const nastyText = (maxLength: number) =>
  fc.oneof(
    fc.string({ maxLength, unit: 'binary' }),
    fc.string({ maxLength }),
    fc.constantFrom(
      '',
      '\u0000',
      '\r\n',
      '%00',
      '%',
      '../',
      '..%2f',
      '\uFFFE',
      '&amp;',
      '<',
      ']]>',
      '\u202e',
      ' ',
    ),
  );

/** A path segment the HTTP parser accepts: URL-safe characters and percent escapes, valid or not. */
export const pathSegment = fc
  .array(
    fc.oneof(
      fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@"),
      fc.constantFrom('%00', '%2F', '%2f', '%ZZ', '%', '%C3%A4', '%FF', '%20', '..', '.'),
    ),
    { minLength: 0, maxLength: 24 },
  )
  .map((parts) => parts.join(''));

export const randomBytes = (maxLength: number) =>
  fc.uint8Array({ maxLength }).map((array) => Buffer.from(array));
