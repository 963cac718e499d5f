import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PbxStore } from '../state/store.ts';
import { CommandExecutor, type CommandExecutorOptions } from './command-executor.ts';
import { createMaintenanceApi, type MaintenanceApi } from './maintenance-api.ts';
import { InProcessMaintenanceControl, type MaintenanceControl } from './maintenance-control.ts';
import { createMaintenanceHandler, type MaintenanceHandlerOptions } from './maintenance-handler.ts';
import { TokenStore } from './token-store.ts';

export interface MaintenanceFace {
  tokens: TokenStore;
  executor: CommandExecutor;
  api: MaintenanceApi;
  /** Mount under `MAINTENANCE_BASE_PATH` on the PBX web server. */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  control: MaintenanceControl;
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
    control: new InProcessMaintenanceControl(tokens, executor),
    reset() {
      tokens.clear();
      executor.reset();
    },
    close() {
      executor.close();
    },
  };
}
