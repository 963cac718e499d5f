import * as crypto from 'node:crypto';
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { PbxStore } from '../state/store.ts';
import { LOG_SOURCE } from './command-executor.ts';

/** Longest token label taken (MAINT-UNSPEC-TOKEN-UI: the simulator's bound). */
export const MAX_LABEL_LENGTH = 200;

/** Bytes of randomness in a secret (MAINT-TOKEN-SECRET-FORMAT). */
export const SECRET_BYTES = 32;

/** A token as the list shows it: never the secret, never its hash (MAINT-TOKEN-LIST-FIELDS). */
export interface TokenInfo {
  id: string;
  label: string;
  /** Virtual-clock epoch ms. */
  createdAt: number;
  /** Epoch ms from which the token is invalid; `null`: valid indefinitely (MAINT-TOKEN-NO-EXPIRY). */
  expiresAt: number | null;
  /** Epoch ms of the last call authenticated with it; `null` before the first. */
  lastUsedAt: number | null;
}

/** The result of a creation: the only place the clear secret ever appears (MAINT-TOKEN-SECRET-SHOWN-ONCE). */
export interface CreatedToken {
  id: string;
  label: string;
  createdAt: number;
  expiresAt: number | null;
  /** 32 random bytes, Base64url without `=` padding: 43 characters (MAINT-UNSPEC-BASE64URL-PADDING). */
  secret: string;
}

export interface TokenCreateInput {
  label: unknown;
  expiresAt?: unknown;
}

/**
 * Why a token operation was refused: `forbidden` (the actor lacks the administration right or is
 * unknown; the control plane answers 403), `invalid-input` (400) or `not-found` (404). Messages
 * never carry a secret.
 */
export type TokenErrorCode = 'forbidden' | 'invalid-input' | 'not-found';

export class TokenStoreError extends Error {
  constructor(
    readonly code: TokenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TokenStoreError';
  }
}

interface StoredToken {
  id: string;
  label: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  /** SHA-256 of the secret's UTF-8 text; the clear secret is never kept (MAINT-TOKEN-HASH-ONLY). */
  sha256: Buffer;
}

/** A stored record as tests may inspect it: the hash in hex, nothing else secret-derived. */
export type StoredTokenView = TokenInfo & { sha256: string };

/** One-shot `crypto.hash` (Node 20.12+) where present: it skips the Hash object a request would build. */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer })
  .hash;

function sha256(text: string): Buffer {
  return oneShotHash
    ? oneShotHash('sha256', text, 'buffer')
    : createHash('sha256').update(text, 'utf8').digest();
}

/**
 * The API tokens of interface A, managed as the module UI would (here: through the control plane
 * and this TypeScript API). Managing requires the administration right of a PBX user
 * (MAINT-TOKEN-ADMIN-RIGHT). A secret is returned once at creation and only its SHA-256 hash is
 * kept. `verify` compares the hash of a presented token with every stored hash in constant time,
 * without stopping at the first match; expiry runs on the store's virtual clock: a token is valid
 * while `now < expiresAt`, to the millisecond, and invalid from `expiresAt` on
 * (MAINT-UNSPEC-TOKEN-EXPIRY, MAINT-TOKEN-EXPIRY-BOUNDARY). A deleted token is gone at once
 * (MAINT-TOKEN-REVOKE-IMMEDIATE). Every valid token authorises every endpoint (MAINT-TOKEN-NO-SCOPING).
 */
export class TokenStore {
  private readonly tokens = new Map<string, StoredToken>();

  constructor(private readonly store: PbxStore) {}

  /**
   * Creates a token. Its hash is stored before this returns and there is no activation step, so
   * the first call with the secret is accepted (MAINT-TOKEN-VALID-ON-CREATE).
   */
  create(input: TokenCreateInput, actor: unknown): CreatedToken {
    const login = this.requireAdmin(actor);
    const { label, expiresAt } = this.checkInput(input);
    const secret = randomBytes(SECRET_BYTES).toString('base64url');
    const token: StoredToken = {
      id: randomUUID(),
      label,
      createdAt: this.store.clock.now(),
      expiresAt,
      lastUsedAt: null,
      sha256: sha256(secret),
    };
    this.tokens.set(token.id, token);
    this.store.log('info', LOG_SOURCE, 'API token created', { id: token.id, label, expiresAt, actor: login });
    return { id: token.id, label, createdAt: token.createdAt, expiresAt, secret };
  }

  /** Tokens in creation order, expired ones included. */
  list(actor: unknown): TokenInfo[] {
    this.requireAdmin(actor);
    return [...this.tokens.values()].map(info);
  }

  /** Revokes a token, valid or expired: the next call with it gets 401. */
  delete(id: unknown, actor: unknown): void {
    const login = this.requireAdmin(actor);
    if (typeof id !== 'string' || !this.tokens.delete(id)) {
      throw new TokenStoreError('not-found', 'no API token with this id');
    }
    this.store.log('info', LOG_SOURCE, 'API token deleted', { id, actor: login });
  }

  /**
   * The token a presented secret belongs to, if it is valid now; `null` (the API's 401) for an
   * unknown, deleted or expired one (MAINT-AUTH-401-INVALID, MAINT-AUTH-401-REVOKED,
   * MAINT-AUTH-401-EXPIRED). A success updates `lastUsedAt` (MAINT-TOKEN-LIST-FIELDS). Failures
   * are not logged nor reported anywhere (MAINT-AUTH-FAILURES-NOT-REPORTED), and on purpose not
   * counted: it takes no client address and keeps no failure count, so failures never lock a
   * valid token out (MAINT-AUTH-NO-LOCKOUT).
   */
  verify(presented: string): TokenInfo | null {
    const digest = sha256(presented);
    let match: StoredToken | undefined;
    for (const token of this.tokens.values()) {
      const equal = timingSafeEqual(digest, token.sha256);
      match = equal && match === undefined ? token : match;
    }
    if (!match) return null;
    const now = this.store.clock.now();
    if (match.expiresAt !== null && now >= match.expiresAt) return null;
    match.lastUsedAt = now;
    return info(match);
  }

  /** The stored records, for tests that check no clear secret is at rest (MAINT-TOKEN-HASH-ONLY). */
  storedRecords(): StoredTokenView[] {
    return [...this.tokens.values()].map((token) => ({
      ...info(token),
      sha256: token.sha256.toString('hex'),
    }));
  }

  /** Drops every token (control-plane reset between scenarios). */
  clear(): void {
    this.tokens.clear();
  }

  private requireAdmin(actor: unknown): string {
    const user =
      typeof actor === 'string'
        ? this.store.read().users.find((candidate) => candidate.login === actor)
        : undefined;
    if (!user?.admin)
      throw new TokenStoreError('forbidden', 'managing API tokens requires the administration right');
    return user.login;
  }

  private checkInput(input: TokenCreateInput): { label: string; expiresAt: number | null } {
    if (typeof input !== 'object' || input === null)
      throw new TokenStoreError('invalid-input', 'a token needs a label');
    const { label, expiresAt } = input;
    if (typeof label !== 'string' || label.trim() === '') {
      throw new TokenStoreError('invalid-input', 'label is required: a non-empty string');
    }
    if (label.length > MAX_LABEL_LENGTH) {
      throw new TokenStoreError('invalid-input', `label must be at most ${MAX_LABEL_LENGTH} characters`);
    }
    if (expiresAt === undefined || expiresAt === null) return { label, expiresAt: null };
    if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt)) {
      throw new TokenStoreError('invalid-input', 'expiresAt must be an integer epoch in ms');
    }
    if (expiresAt <= this.store.clock.now())
      throw new TokenStoreError('invalid-input', 'expiresAt must lie in the future');
    return { label, expiresAt };
  }
}

function info(token: StoredToken): TokenInfo {
  return {
    id: token.id,
    label: token.label,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt,
    lastUsedAt: token.lastUsedAt,
  };
}
