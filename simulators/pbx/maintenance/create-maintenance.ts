import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Effects } from '../../shared/control/control-operation.ts';
import type { PbxStore } from '../state/store.ts';
import { CommandExecutor, type CommandExecutorOptions } from './command-executor.ts';
import { createMaintenanceApi, type MaintenanceApi } from './maintenance-api.ts';
import { maintenanceEffects } from './maintenance-effects.ts';
import { createMaintenanceHandler, type MaintenanceHandlerOptions } from './maintenance-handler.ts';
import type { MAINTENANCE_CONTROL_OPERATIONS } from './maintenance-operations.ts';
import { TokenStore } from './token-store.ts';

export interface MaintenanceFace {
  tokens: TokenStore;
  executor: CommandExecutor;
  api: MaintenanceApi;
  /** Mount under `MAINTENANCE_BASE_PATH` on the PBX web server. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** What the control plane's maintenance operations do (maintenance-operations.ts). */
  effects: Effects<typeof MAINTENANCE_CONTROL_OPERATIONS>;
  /** Between scenarios: drops tokens, queued commands, events and pending clock timers. */
  reset(): void;
  /** Stops the executor and its timers. */
  close(): void;
}

/** Wires interface A onto one PBX store: token store, executor, core, listener, control. */
export function createMaintenance(
  store: PbxStore,
  options: MaintenanceHandlerOptions & CommandExecutorOptions = {},
): MaintenanceFace {
  const tokens = new TokenStore(store);
  const executor = new CommandExecutor(store, options);
  const api = createMaintenanceApi(store, tokens, executor);
  return {
    tokens,
    executor,
    api,
    handler: createMaintenanceHandler(api, options),
    effects: maintenanceEffects(tokens, executor),
    reset() {
      tokens.clear();
      executor.reset();
    },
    close() {
      executor.close();
    },
  };
}
