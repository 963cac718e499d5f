import { CommandExecutor } from '../../../../simulators/pbx/maintenance/command-executor.ts';
import {
  createMaintenanceApi,
  type MaintenanceApi,
  type MaintenanceRequest,
  SYSTEM_FUNCTIONS_PATH,
} from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import type { MaintenanceResponse } from '../../../../simulators/pbx/maintenance/maintenance-responses.ts';
import { TokenStore } from '../../../../simulators/pbx/maintenance/token-store.ts';
import { defaultState } from '../../../../simulators/pbx/state/default-state.ts';
import { PbxStore } from '../../../../simulators/pbx/state/store.ts';
import type { PbxState } from '../../../../simulators/pbx/state/types.ts';
import { VirtualClock } from '../../../../simulators/shared/clock.ts';

/** 2026-01-01T00:00Z: a fixed start so dates in tests are readable. */
export const START = Date.UTC(2026, 0, 1);

export interface MaintenanceFixture {
  clock: VirtualClock;
  store: PbxStore;
  tokens: TokenStore;
  executor: CommandExecutor;
  api: MaintenanceApi;
  /** A valid token created by `admin`. */
  secret: string;
  /** POSTs a command through the core with the fixture's token; `body` is JSON-encoded unless a string or bytes. */
  post(command: string, body?: unknown, headers?: Record<string, string>): MaintenanceResponse;
  /** Runs everything queued. */
  settle(): Promise<void>;
  /** The executor's module-log entries (executed or discarded). */
  outcomes(): { message: string; data: Record<string, unknown> }[];
  close(): void;
}

export function encodeBody(body: unknown): Uint8Array {
  if (body === undefined) return new Uint8Array(0);
  if (body instanceof Uint8Array) return body;
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body), 'utf8');
}

export function createFixture(adjust?: (state: PbxState) => void): MaintenanceFixture {
  const clock = new VirtualClock({ start: START });
  const state = defaultState(clock.now());
  adjust?.(state);
  const store = new PbxStore(clock, state);
  const tokens = new TokenStore(store);
  const executor = new CommandExecutor(store);
  const api = createMaintenanceApi(store, tokens, executor);
  const { secret } = tokens.create({ label: 'fixture' }, 'admin');
  return {
    clock,
    store,
    tokens,
    executor,
    api,
    secret,
    post(command, body, headers = { authorization: `Bearer ${secret}` }) {
      const request: MaintenanceRequest = {
        method: 'POST',
        target: `${SYSTEM_FUNCTIONS_PATH}/${command}`,
        headers,
        body: encodeBody(body),
      };
      return api.handle(request);
    },
    settle: () => executor.idle(),
    outcomes() {
      return store
        .moduleLog()
        .filter((entry) => entry.source === 'maintenance' && /^maintenance command /.test(entry.message))
        .map((entry) => ({ message: entry.message, data: entry.data ?? {} }));
    },
    close() {
      executor.close();
      clock.dispose();
    },
  };
}

/** The JSON body of a core answer. */
export function json(response: MaintenanceResponse): unknown {
  return JSON.parse(response.body);
}
