import type { CommandExecutor } from './command-executor.ts';
import type { CompletionEvent } from './completion-event.ts';
import type { CreatedToken, StoredTokenView, TokenInfo, TokenStore } from './token-store.ts';

export interface TokenCreateRequest {
  label: string;
  /** Epoch ms (virtual clock); absent or `null`: valid indefinitely. */
  expiresAt?: number | null;
}

/** Longest real-time wait of `waitIdle`, so a stuck queue never stalls a run. */
export const MAX_IDLE_WAIT_MS = 10_000;

/**
 * What the module UI offers for interface A, as the control plane exposes it: token management
 * (standing in for the security card's API tokens button, MAINT-UNSPEC-TOKEN-UI) and the
 * completion events. `actor` is the login of a PBX user (`state.users`); without the
 * administration right every token operation is refused (`TokenStoreError` `forbidden`, HTTP
 * 403; MAINT-TOKEN-ADMIN-RIGHT). Two implementations: in-process and over HTTP.
 */
export interface MaintenanceControl {
  createToken(request: TokenCreateRequest, actor: string): Promise<CreatedToken>;
  listTokens(actor: string): Promise<TokenInfo[]>;
  deleteToken(id: string, actor: string): Promise<void>;
  /** Completion events with `seq` above `sinceSeq`, oldest first. */
  completionEvents(sinceSeq?: number): Promise<CompletionEvent[]>;
  /** Waits (at most `MAX_IDLE_WAIT_MS`, real time) until every accepted command has run; returns how many still wait. */
  waitIdle(): Promise<{ pending: number }>;
  /**
   * The token records as stored: metadata and the SHA-256 hash, never a secret (MAINT-TOKEN-HASH-ONLY).
   * A simulator inspection route, not part of the module UI, so a harness can check what is at rest.
   */
  storedTokenRecords(): Promise<StoredTokenView[]>;
}

export class InProcessMaintenanceControl implements MaintenanceControl {
  constructor(
    private readonly tokens: TokenStore,
    private readonly executor: CommandExecutor,
  ) {}

  async createToken(request: TokenCreateRequest, actor: string): Promise<CreatedToken> {
    return this.tokens.create(request, actor);
  }

  async listTokens(actor: string): Promise<TokenInfo[]> {
    return this.tokens.list(actor);
  }

  async deleteToken(id: string, actor: string): Promise<void> {
    this.tokens.delete(id, actor);
  }

  async completionEvents(sinceSeq = 0): Promise<CompletionEvent[]> {
    return this.executor.events(sinceSeq);
  }

  async storedTokenRecords(): Promise<StoredTokenView[]> {
    return this.tokens.storedRecords();
  }

  async waitIdle(): Promise<{ pending: number }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, MAX_IDLE_WAIT_MS);
    });
    await Promise.race([this.executor.idle(), timeout]);
    clearTimeout(timer);
    return { pending: this.executor.pending() };
  }
}
