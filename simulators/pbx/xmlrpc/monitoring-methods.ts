import type { PbxStore } from '../state/store.ts';
import type { XmlRpcStruct, XmlRpcValue } from './xmlrpc-codec.ts';

/** Where the data queries get their payloads; the simulator reads the shared snapshot. */
export interface MonitoringData {
  /** The complete agent text of the current snapshot, `<<<local>>>` included. */
  agentText(): string;
  /** The `local` sensor document of the current snapshot. */
  localDocument(): string;
}

export interface MethodContext {
  store: PbxStore;
  data: MonitoringData;
  /** The full method name as called, `<instance>.<command>`. */
  methodName: string;
  /** The authenticated login; `null` for a method that needs none. */
  login: string | null;
}

/**
 * One command of the monitoring module. `run` is the module handler: the dispatcher calls it only
 * after the credentials of a method with `requiresAuth` have passed (XMLRPC-AUTH-BEFORE-HANDLER).
 */
export interface MonitoringMethod {
  command: string;
  requiresAuth: boolean;
  run(input: XmlRpcStruct, context: MethodContext): XmlRpcStruct;
}

/** `data` of `GetMonitoringDataXML` while the tile is off or the licence is missing. */
export const EMPTY_LOCAL_DOCUMENT = '<local></local>';

/**
 * Reads `useLocalChecks` (XMLRPC-GMD-USELOCALCHECKS-DEFAULT, XMLRPC-GMD-USELOCALCHECKS-STRINGS): the boolean `true` and the
 * strings `true` and `1` mean true. XMLRPC-UNSPEC-PARAMS: any other value (absent, `false`, `0`,
 * other strings, numbers, structs) means false and is never a fault; the flag changes nothing in the
 * answer anyway (XMLRPC-GMD-COMPLETE-TEXT).
 */
export function readUseLocalChecks(input: XmlRpcStruct): boolean {
  const value: XmlRpcValue | undefined = Object.hasOwn(input, 'useLocalChecks')
    ? input['useLocalChecks']
    : undefined;
  return value === true || value === 'true' || value === '1';
}

/**
 * `<instance>.GetMonitoringData` → `{ data: <agent text> }` (XMLRPC-GMD-RETURN,
 * XMLRPC-GMD-COMPLETE-TEXT); `data` is `''` with the tile off or without a licence
 * (XMLRPC-GMD-TILE-OFF, XMLRPC-GMD-UNLICENSED).
 */
export const getMonitoringData: MonitoringMethod = {
  command: 'GetMonitoringData',
  requiresAuth: true,
  run(input, context) {
    const useLocalChecks = readUseLocalChecks(input);
    context.store.log('info', 'xmlrpc', `${context.methodName} called`, {
      login: context.login,
      useLocalChecks,
    });
    if (!dataAvailable(context.store)) return { data: '' };
    return collect(context, () => context.data.agentText());
  },
};

/**
 * `<instance>.GetMonitoringDataXML` → `{ data: <local document> }` (XMLRPC-GMDX-RETURN); `data` is
 * `<local></local>` with the tile off or without a licence (XMLRPC-GMDX-TILE-OFF,
 * XMLRPC-GMDX-UNLICENSED). Members of the input struct are ignored.
 */
export const getMonitoringDataXml: MonitoringMethod = {
  command: 'GetMonitoringDataXML',
  requiresAuth: true,
  run(_input, context) {
    context.store.log('info', 'xmlrpc', `${context.methodName} called`, { login: context.login });
    if (!dataAvailable(context.store)) return { data: EMPTY_LOCAL_DOCUMENT };
    return collect(context, () => context.data.localDocument());
  },
};

/**
 * `<instance>.isActiveDirectoryEnabled` → `{ activeDirectoryEnabled: 'true' | 'false' }`, a string
 * and never an XML-RPC boolean (XMLRPC-AD-RETURN, XMLRPC-AD-VALUE), with no other member
 * (XMLRPC-AD-MINIMAL). No credentials (XMLRPC-AD-NO-AUTH); tile and licence do not matter
 * (XMLRPC-AD-TILE-OFF, XMLRPC-AD-UNLICENSED).
 */
export const isActiveDirectoryEnabled: MonitoringMethod = {
  command: 'isActiveDirectoryEnabled',
  requiresAuth: false,
  run(_input, context) {
    context.store.log('info', 'xmlrpc', `${context.methodName} called`, { login: context.login });
    return {
      activeDirectoryEnabled: context.store.read().directory.activeDirectoryEnabled ? 'true' : 'false',
    };
  },
};

/** The three commands of the monitoring module (XMLRPC-METHOD-NAMES). */
export const MONITORING_METHODS: readonly MonitoringMethod[] = [
  getMonitoringData,
  getMonitoringDataXml,
  isActiveDirectoryEnabled,
];

function dataAvailable(store: PbxStore): boolean {
  const state = store.read();
  return state.monitoring.tileOn && state.licence.valid;
}

/**
 * XMLRPC-ERR-COLLECTION: the fault `collection-error`, or any exception while collecting
 * (a renderer failing, e.g. under the `render-error` fault), yields an empty struct without `data`
 * and an error entry in the module log.
 */
function collect(context: MethodContext, read: () => string): XmlRpcStruct {
  try {
    if (context.store.hasFault('collection-error')) throw new Error('injected fault collection-error');
    return { data: read() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.store.log(
      'error',
      'xmlrpc',
      `${context.methodName}: collecting monitoring data failed: ${message}`,
      {
        method: context.methodName,
        error: message,
      },
    );
    return {};
  }
}
