import { createHash, randomBytes } from 'node:crypto';
import type { AuthChallenge } from './auth-challenge.ts';

/**
 * HTTP Digest access authentication, client side (RFC 7616), for RESOLVER-AUTH-DIGEST and
 * RESOLVER-AUTH-DIGEST-VALID. Written against the RFC because no maintained npm digest client
 * fits undici's dispatcher (docs/resolver.md, "Digest"); the RFC's section 3.9.1 example is the
 * unit test.
 */

/** Algorithms in order of preference when a server offers several challenges. */
const ALGORITHMS: Record<string, { hash: string; rank: number }> = {
  'SHA-512-256': { hash: 'sha512-256', rank: 3 },
  'SHA-256': { hash: 'sha256', rank: 2 },
  MD5: { hash: 'md5', rank: 1 },
};

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  /** As the server named it (echoed unchanged), e.g. `SHA-256-sess`; `MD5` when absent. */
  algorithm: string;
  /** `auth` when offered, `null` for an RFC 2069 challenge without `qop`. */
  qop: 'auth' | null;
  userhash: boolean;
  stale: boolean;
}

export type DigestSelection = { ok: true; challenge: DigestChallenge } | { ok: false; reason: string };

function baseAlgorithm(algorithm: string): string {
  return algorithm.toUpperCase().replace(/-SESS$/, '');
}

/**
 * Picks the strongest usable Digest challenge (SHA-512-256, SHA-256, MD5, each also `-sess`)
 * offering `qop=auth` or no qop. `auth-int` alone is refused: the module sends `qop=auth`.
 */
export function selectDigestChallenge(challenges: readonly AuthChallenge[]): DigestSelection {
  const digests = challenges.filter((c) => c.scheme.toLowerCase() === 'digest');
  if (digests.length === 0) return { ok: false, reason: 'the 401 answer offers no Digest challenge' };
  let best: DigestChallenge | undefined;
  const refused: string[] = [];
  for (const { params } of digests) {
    const algorithm = params['algorithm'] ?? 'MD5';
    const known = ALGORITHMS[baseAlgorithm(algorithm)];
    const qops = params['qop']?.split(',').map((q) => q.trim().toLowerCase());
    if (!known) {
      refused.push(`algorithm ${algorithm} is not supported`);
      continue;
    }
    if (qops && !qops.includes('auth')) {
      refused.push(`qop ${params['qop']} is not supported (only auth)`);
      continue;
    }
    if (!params['nonce'] || params['realm'] === undefined) {
      refused.push('the challenge lacks realm or nonce');
      continue;
    }
    const candidate: DigestChallenge = {
      realm: params['realm'],
      nonce: params['nonce'],
      algorithm,
      qop: qops ? 'auth' : null,
      userhash: params['userhash']?.toLowerCase() === 'true',
      stale: params['stale']?.toLowerCase() === 'true',
    };
    if (params['opaque'] !== undefined) candidate.opaque = params['opaque'];
    if (!best || known.rank > (ALGORITHMS[baseAlgorithm(best.algorithm)]?.rank ?? 0)) best = candidate;
  }
  return best ? { ok: true, challenge: best } : { ok: false, reason: refused.join('; ') };
}

export interface DigestInput {
  challenge: DigestChallenge;
  username: string;
  password: string;
  method: string;
  /** The request-target exactly as on the request line (path and query). */
  uri: string;
  /** Client nonce; a random one when absent (tests pass the RFC's). */
  cnonce?: string;
  /** Nonce count, 1 for the first use of a nonce. */
  nc?: number;
}

function hasher(algorithm: string): (text: string) => string {
  const hash = ALGORITHMS[baseAlgorithm(algorithm)]?.hash;
  if (!hash) throw new RangeError(`unsupported digest algorithm ${algorithm}`);
  return (text) => createHash(hash).update(text, 'utf8').digest('hex');
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The `response` value of RFC 7616 section 3.4.1 (also `-sess`, and RFC 2069 without qop). */
export function digestResponse(input: DigestInput & { cnonce: string; nc: number }): string {
  const { challenge, username, password, method, uri, cnonce } = input;
  const H = hasher(challenge.algorithm);
  const nc = input.nc.toString(16).padStart(8, '0');
  let ha1 = H(`${username}:${challenge.realm}:${password}`);
  if (/-sess$/i.test(challenge.algorithm)) ha1 = H(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = H(`${method}:${uri}`);
  return challenge.qop
    ? H(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${challenge.qop}:${ha2}`)
    : H(`${ha1}:${challenge.nonce}:${ha2}`);
}

/**
 * The `Authorization: Digest …` value answering a challenge (RFC 7616 section 3.4). With
 * `userhash=true` the user name is sent hashed (section 3.4.4); a user name outside ASCII is sent
 * as `username*` in RFC 8187 form.
 */
export function digestAuthorization(input: DigestInput): string {
  const cnonce = input.cnonce ?? randomBytes(16).toString('hex');
  const nc = input.nc ?? 1;
  const { challenge } = input;
  const response = digestResponse({ ...input, cnonce, nc });
  const parts: string[] = [];
  if (challenge.userhash) {
    parts.push(`username=${quote(hasher(challenge.algorithm)(`${input.username}:${challenge.realm}`))}`);
  } else if (/^[\x20-\x7e]*$/.test(input.username)) {
    parts.push(`username=${quote(input.username)}`);
  } else {
    parts.push(`username*=UTF-8''${encodeURIComponent(input.username)}`);
  }
  parts.push(
    `realm=${quote(challenge.realm)}`,
    `uri=${quote(input.uri)}`,
    `algorithm=${challenge.algorithm}`,
  );
  parts.push(`nonce=${quote(challenge.nonce)}`);
  if (challenge.qop)
    parts.push(`nc=${nc.toString(16).padStart(8, '0')}`, `cnonce=${quote(cnonce)}`, `qop=${challenge.qop}`);
  parts.push(`response=${quote(response)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (challenge.userhash) parts.push('userhash=true');
  return `Digest ${parts.join(', ')}`;
}
