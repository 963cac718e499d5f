import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DigestAlgorithm } from './endpoint-behaviour.ts';

/**
 * The server side of HTTP Digest (RFC 7616) for the customer endpoint: challenges and
 * verification, written separately from the client in simulators/pbx/resolver/digest-auth.ts so
 * the two check each other (and curl checks this one, test/simulators/customer-endpoint/).
 */

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256' };

function h(algorithm: string, text: string): string {
  const hash = HASHES[algorithm.replace(/-sess$/i, '').toUpperCase()];
  if (!hash) throw new RangeError(`unsupported algorithm ${algorithm}`);
  return createHash(hash).update(text, 'utf8').digest('hex');
}

/** Parses the parameters of an `Authorization: Digest …` value (names lower-cased). */
export function parseDigestAuthorization(value: string): Record<string, string> | null {
  const m = /^\s*Digest\s+(.*)$/is.exec(value);
  if (!m) return null;
  const params: Record<string, string> = {};
  const re = /([A-Za-z0-9_-]+\*?)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;
  for (const p of (m[1] as string).matchAll(re)) {
    params[(p[1] as string).toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? '');
  }
  return params;
}

export interface DigestSettings {
  username: string;
  password: string;
  realm: string;
  algorithms: DigestAlgorithm[];
  qop: 'auth' | 'none';
  userhash: boolean;
}

/** Bound on outstanding nonces; the oldest are forgotten first. */
const MAX_NONCES = 1000;

/** Issues nonces and verifies answers; one per endpoint. */
export class DigestVerifier {
  private readonly nonces = new Map<string, { opaque: string; lastNc: number }>();

  /** `WWW-Authenticate` values, one challenge per algorithm. */
  challenge(settings: DigestSettings): string[] {
    const nonce = randomBytes(24).toString('base64');
    const opaque = randomBytes(12).toString('hex');
    this.nonces.set(nonce, { opaque, lastNc: 0 });
    while (this.nonces.size > MAX_NONCES) {
      const oldest = this.nonces.keys().next().value;
      if (oldest === undefined) break;
      this.nonces.delete(oldest);
    }
    return settings.algorithms.map((algorithm) => {
      const parts = [`realm="${settings.realm}"`];
      if (settings.qop === 'auth') parts.push('qop="auth"');
      parts.push(`algorithm=${algorithm}`, `nonce="${nonce}"`, `opaque="${opaque}"`);
      if (settings.userhash) parts.push('userhash=true');
      return `Digest ${parts.join(', ')}`;
    });
  }

  /** Whether `authorization` is a valid answer for `method` and the raw request-target `uri`. */
  verify(settings: DigestSettings, authorization: string, method: string, uri: string): boolean {
    const p = parseDigestAuthorization(authorization);
    if (!p) return false;
    const algorithm = p['algorithm'] ?? 'MD5';
    if (!settings.algorithms.some((a) => a.toUpperCase() === algorithm.toUpperCase())) return false;
    const nonce = p['nonce'] ?? '';
    const issued = this.nonces.get(nonce);
    if (!issued || p['realm'] !== settings.realm || p['uri'] !== uri) return false;
    if (p['opaque'] !== undefined && p['opaque'] !== issued.opaque) return false;
    const expectedUser =
      p['userhash'] === 'true' ? h(algorithm, `${settings.username}:${settings.realm}`) : settings.username;
    if (p['username'] !== expectedUser) return false;
    let ha1 = h(algorithm, `${settings.username}:${settings.realm}:${settings.password}`);
    if (/-sess$/i.test(algorithm)) ha1 = h(algorithm, `${ha1}:${nonce}:${p['cnonce'] ?? ''}`);
    const ha2 = h(algorithm, `${method}:${uri}`);
    let expected: string;
    if (settings.qop === 'auth') {
      const nc = Number.parseInt(p['nc'] ?? '', 16);
      if (p['qop'] !== 'auth' || !p['cnonce'] || !Number.isFinite(nc) || nc <= issued.lastNc) return false;
      expected = h(algorithm, `${ha1}:${nonce}:${p['nc']}:${p['cnonce']}:auth:${ha2}`);
      const ok = safeEqual(expected, p['response'] ?? '');
      if (ok) issued.lastNc = nc;
      return ok;
    }
    expected = h(algorithm, `${ha1}:${nonce}:${ha2}`);
    return safeEqual(expected, p['response'] ?? '');
  }

  clear(): void {
    this.nonces.clear();
  }
}

/** Constant-time comparison of two strings (false when lengths differ). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
