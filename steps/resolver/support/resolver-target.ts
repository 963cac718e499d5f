import { readFileSync } from 'node:fs';
import { httpPbxControl } from '../../../simulators/pbx/index.ts';
import type { VirtualClock } from '../../../simulators/shared/index.ts';
import type { WorldPort } from '../../support/world-port.ts';
import type { ResolverControl } from './resolver-control.ts';

/** A PEM key and certificate for a reference endpoint served over HTTPS. */
export interface TlsPair {
  key: string;
  cert: string;
}

/** The `resolver` section of a target file (schemas/target.schema.json, `$defs/resolver`). */
export interface ResolverTargetSection {
  endpointHost: string;
  bindHost?: string;
  trigger?: 'control' | 'none';
  trustedCertificate?: { certFile: string; keyFile: string };
  trustedCertificateOtherHost?: { certFile: string; keyFile: string };
}

/**
 * What the resolver scenarios need of a target: where the reference endpoints listen so that the
 * PBX reaches them, and the PBX's resolver control plane to configure providers, trigger
 * resolutions and read the caller-ID result and the search log. Without the control plane the
 * scenarios are not verifiable (`unavailable` says why).
 */
export interface ResolverTarget {
  embedded: boolean;
  /** The host of the reference endpoints' URLs, as the PBX reaches them. */
  endpointHost: string;
  /** The address they bind (default `endpointHost`). */
  bindHost: string;
  control?: ResolverControl;
  unavailable?: string;
  /**
   * Embedded only: the PBX's duration clock, shared with the reference endpoints so their answer
   * delays pass on it instead of in real time (`PbxTarget.durationClock`).
   */
  sharedClock?: VirtualClock;
  /** Certificates the PBX's runtime trusts, for RESOLVER-TLS-TRUST-STORE and RESOLVER-TLS-NO-HOSTNAME (remote only). */
  trusted?: { matching?: TlsPair; otherHost?: TlsPair };
}

function readPair(entry: { certFile: string; keyFile: string } | undefined): TlsPair | undefined {
  if (!entry) return undefined;
  return { cert: readFileSync(entry.certFile, 'utf8'), key: readFileSync(entry.keyFile, 'utf8') };
}

/**
 * The resolver side of the scenario's target. The embedded simulator is reached through its
 * control URL; a remote target through the `resolver` section and `pbx.controlUrl` of its file.
 * Returns the reason when the target cannot take part at all (no address for the endpoints).
 */
export function resolverTargetOf(world: WorldPort): ResolverTarget | string {
  const parsed = world.parameters.target;
  if (parsed === undefined) {
    const controlUrl = world.pbx.controlUrl;
    return {
      embedded: true,
      endpointHost: '127.0.0.1',
      bindHost: '127.0.0.1',
      ...(world.pbx.durationClock ? { sharedClock: world.pbx.durationClock } : {}),
      ...(controlUrl
        ? { control: httpPbxControl(controlUrl) }
        : { unavailable: 'the embedded target reports no control URL' }),
    };
  }
  const file = parsed.description;
  const section = file['resolver'] as ResolverTargetSection | undefined;
  if (!section)
    return `target "${file.name}" has no resolver section: the scenarios need endpointHost, an address of this harness that the PBX can reach`;
  const controlUrl = file.pbx.controlUrl;
  const target: ResolverTarget = {
    embedded: false,
    endpointHost: section.endpointHost,
    bindHost: section.bindHost ?? section.endpointHost,
    trusted: {
      ...(section.trustedCertificate ? { matching: readPair(section.trustedCertificate) } : {}),
      ...(section.trustedCertificateOtherHost
        ? { otherHost: readPair(section.trustedCertificateOtherHost) }
        : {}),
    },
  };
  if ((section.trigger ?? 'control') !== 'control')
    target.unavailable = `target "${file.name}" cannot trigger resolutions (resolver.trigger is "${section.trigger}"); configure the provider and make a call by hand against \`pbx-conformance endpoint\``;
  else if (!controlUrl)
    target.unavailable = `target "${file.name}" has no control plane (pbx.controlUrl) to configure providers, trigger resolutions and read the caller-ID result and search log`;
  else target.control = httpPbxControl(controlUrl, { token: file.pbx.controlToken });
  return target;
}
