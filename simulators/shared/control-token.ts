import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * Access to a control plane (the PBX's and the fleet controller's; issue 12, defect 7). A control
 * plane can reset state and mint maintenance tokens, so it stays on loopback unless told otherwise,
 * and on any other address it requires a bearer token. The token is kept only as its SHA-256 and
 * compared in constant time; it never goes into a log or an error.
 */

/** True for an address only this machine can reach: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  return mapped?.[1]?.startsWith('127.') ?? false;
}

/** A random token (32 bytes, base64url) for a control plane whose address is not loopback. */
export function generateControlToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Thrown when a control plane would listen beyond loopback without a token. */
export class ControlTokenRequiredError extends Error {
  override name = 'ControlTokenRequiredError';
}

/** The stored form of a control-plane token: its SHA-256, checked in constant time. */
export class ControlTokenCheck {
  private readonly hash: Buffer;

  constructor(token: string) {
    if (token === '') throw new ControlTokenRequiredError('a control-plane token must not be empty');
    this.hash = sha256(token);
  }

  /** True when the `Authorization` header is `Bearer <the token>`. */
  allows(authorization: string | string[] | undefined): boolean {
    const header = Array.isArray(authorization) ? authorization[0] : authorization;
    const match = /^Bearer +(\S+) *$/i.exec(header ?? '');
    // Always one hash and one comparison, so a missing header costs what a wrong one does.
    const given = sha256(match?.[1] ?? '');
    return timingSafeEqual(given, this.hash) && match !== null;
  }
}

/**
 * The check a control plane on `host` runs: `null` (open) on loopback without a token; a check when
 * a token is given; and a refusal to start on a non-loopback address without one.
 */
export function controlTokenCheckFor(host: string, token: string | undefined): ControlTokenCheck | null {
  if (token !== undefined) return new ControlTokenCheck(token);
  if (isLoopbackHost(host)) return null;
  throw new ControlTokenRequiredError(
    `a control plane on ${host} (not loopback) needs a token: pass --control-token or keep it on 127.0.0.1`,
  );
}

/** The 401 body and headers a control plane answers without a valid token. */
export const CONTROL_UNAUTHORIZED = {
  status: 401,
  headers: {
    'content-type': 'application/json; charset=utf-8',
    'www-authenticate': 'Bearer realm="control plane"',
  },
  body: JSON.stringify({
    error: 'unauthorized',
    message: 'this control plane needs its token: Authorization: Bearer <control token>',
  }),
} as const;

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
