import { HttpPbxControl } from '../../simulators/pbx/control/http-control-client.ts';
import type { OpenedTarget } from './target.ts';
import type { TargetFile } from './target-file.ts';

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
      ...(pbx.controlUrl ? { control: new HttpPbxControl(pbx.controlUrl) } : {}),
    },
  };
  return { target, close: async () => {} };
}
