import { httpPbxControl, type PbxControl } from '../../simulators/pbx/index.ts';
import type { TargetFile } from '../../src/core/target-file.ts';
import type { MaintenanceTarget, OpenedTarget } from './target.ts';

/**
 * A target described by a target file: a real PBX or a simulator running elsewhere. With a
 * `controlUrl` its control plane is reset before and after each scenario (hooks.ts); nothing
 * else is started or stopped by the harness.
 */
export function openRemoteTarget(file: TargetFile): OpenedTarget {
  const { pbx } = file;
  const target: OpenedTarget['target'] = {
    name: file.name,
    kind: 'remote',
    pbx: {
      webUrl: pbx.webUrl.replace(/\/+$/, ''),
      monitoring: { ...pbx.monitoring },
      xmlrpc: { ...pbx.xmlrpc },
      listedClientAddress: pbx.listedClientAddress,
      ...(pbx.unlistedClientAddress ? { unlistedClientAddress: pbx.unlistedClientAddress } : {}),
      ...(pbx.edgeClientAddresses ? { edgeClientAddresses: [...pbx.edgeClientAddresses] } : {}),
      ...(pbx.controlUrl
        ? {
            control: httpPbxControl(pbx.controlUrl, { token: pbx.controlToken }),
            controlUrl: pbx.controlUrl,
            ...(pbx.controlToken ? { controlToken: pbx.controlToken } : {}),
          }
        : {}),
      ...maintenanceSection(file, pbx.controlUrl, pbx.controlToken),
    },
  };
  return { target, close: async () => {} };
}

/** The `maintenance` section of a target file (schemas/target.schema.json). */
interface MaintenanceSection {
  basePath?: string;
  token?: string;
  sessionCookie?: string;
}

/** Interface A as the target file describes it; its control plane is the PBX's, when there is one. */
function maintenanceSection(
  file: TargetFile,
  controlUrl: string | undefined,
  controlToken: string | undefined,
): { maintenance?: MaintenanceTarget } {
  const section = file['maintenance'] as MaintenanceSection | undefined;
  if (!section) return {};
  return {
    maintenance: {
      basePath: (section.basePath ?? '/fp/7ce0d8df/api/v1').replace(/\/+$/, ''),
      ...(section.token ? { token: section.token } : {}),
      ...(section.sessionCookie ? { sessionCookie: section.sessionCookie } : {}),
      ...(controlUrl ? controlOf(httpPbxControl(controlUrl, { token: controlToken })) : {}),
    },
  };
}

/** The control plane of interface A and what it shows of the tokens at rest (MAINT-TOKEN-HASH-ONLY). */
function controlOf(control: PbxControl): Pick<MaintenanceTarget, 'control' | 'storedTokenRecords'> {
  return {
    control,
    storedTokenRecords: async () => (await control.storedTokenRecords()).map((record) => ({ ...record })),
  };
}
