import { ControlRefusal } from '../../shared/control/control-error.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { CommandExecutor } from './command-executor.ts';
import { type MAINTENANCE_CONTROL_OPERATIONS, MAX_IDLE_WAIT_MS } from './maintenance-operations.ts';
import { type TokenErrorCode, type TokenStore, TokenStoreError } from './token-store.ts';

const REFUSAL: Record<Exclude<TokenErrorCode, 'invalid-input'>, { status: number; error: string }> = {
  forbidden: { status: 403, error: 'forbidden' },
  'not-found': { status: 404, error: 'not_found' },
};

/** Runs a token operation; a `TokenStoreError` becomes 400, 403 or 404 with its message. */
function asAnswer<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (!(error instanceof TokenStoreError)) throw error;
    if (error.code === 'invalid-input') throw new ControlInputError(error.message);
    const { status, error: code } = REFUSAL[error.code];
    throw new ControlRefusal(status, code, error.message);
  }
}

/** What each operation of `MAINTENANCE_CONTROL_OPERATIONS` does to the token store and the executor. */
export function maintenanceEffects(
  tokens: TokenStore,
  executor: CommandExecutor,
): Effects<typeof MAINTENANCE_CONTROL_OPERATIONS> {
  return {
    createToken: ({ label, expiresAt, actor }) => asAnswer(() => tokens.create({ label, expiresAt }, actor)),
    listTokens: ({ actor }) => asAnswer(() => tokens.list(actor)),
    deleteToken: ({ id, actor }) => asAnswer(() => tokens.delete(id, actor)),
    storedTokenRecords: () => tokens.storedRecords(),
    completionEvents: ({ since }) => executor.events(since ?? 0),
    async waitIdle() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, MAX_IDLE_WAIT_MS);
      });
      await Promise.race([executor.idle(), timeout]);
      clearTimeout(timer);
      return { pending: executor.pending() };
    },
  };
}
