import { World } from '@cucumber/cucumber';
import type { PbxControl } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { callXmlRpc, type XmlRpcOutcome } from '../../src/clients/xmlrpc-call.ts';
import { describeTcpOutcome, type TcpOutcome, tcpExchange } from '../../src/core/tcp-exchange.ts';
import {
  EVIDENCE_MEDIA_TYPE,
  type EvidenceAttachment,
  NOT_VERIFIABLE_MEDIA_TYPE,
  type NotVerifiableAttachment,
} from '../../src/report/attachments.ts';
import type { FleetContext } from '../fleet/support/fleet-context.ts';
import type { ResolverScenario } from '../resolver/support/resolver-scenario.ts';
import { boundedEvidence, bytesAsEvidence } from './evidence.ts';
import { buildHttpRequest, parseHttpResponse, type RawHttpResponse } from './http-message.ts';
import type { HeldPort } from './port-holder.ts';
import { memoryKey, ScenarioMemory } from './scenario-memory.ts';
import { classifySnapshot, type SnapshotKind } from './snapshot-format.ts';
import type { MonitoringAddress, OpenedTarget, PbxTarget, Target } from './target.ts';
import type { PbxWorldParameters, WorldPort } from './world-port.ts';

/** Where the data endpoint was last reached (it may move during the scenario). */
const LAST_MONITORING_ADDRESS = memoryKey<MonitoringAddress>('lastMonitoringAddress');

/** How long a monitoring fetcher reads before giving up (test-vectors.md: about 8 s). */
export const READ_TIMEOUT_MS = 8_000;
/** How far each tick of a silent client advances the embedded PBX's duration clock (ms). */
const SILENT_STEP_MS = 1_000;
/** How long to wait for a connection that is expected to yield nothing (refused, dropped or closed). */
export const NO_DATA_TIMEOUT_MS = 3_000;
/** Real-time limit of one XML-RPC call. */
export const XMLRPC_TIMEOUT_MS = 10_000;

/** What one connection to the data endpoint brought back. */
export interface EndpointReply {
  /** `raw`: nothing was sent; `http`: an HTTP request was sent. */
  mode: 'raw' | 'http';
  /** The request head as sent (HTTP mode) or `(nothing sent)`. */
  request: string;
  tcp: TcpOutcome;
  /** The parsed response when the bytes start with an HTTP status line. */
  http?: RawHttpResponse;
  /** The payload: the HTTP body, or all bytes in raw mode (or when no status line came). */
  body: Buffer;
}

/** How an XML-RPC call authenticates. */
export type XmlRpcAuth =
  | { kind: 'valid' }
  | { kind: 'none' }
  | { kind: 'value'; value: string }
  | { kind: 'credentials'; login: string; password: string };

export interface XmlRpcExchange {
  method: string;
  params: unknown[];
  outcome: XmlRpcOutcome;
  /** Last module-log sequence number before the call, when the scenario watches the module log. */
  logSeqBefore?: number;
}

export interface ExchangeOptions {
  /** Connect here instead of the data endpoint's current address. */
  address?: MonitoringAddress;
  family?: 4 | 6;
  localAddress?: string;
  timeoutMs?: number;
  /** Attach evidence for this exchange (default true; property runs attach only the counterexample). */
  evidence?: boolean;
}

/**
 * The World of every scenario: the target, the last replies, and helpers that talk to the target
 * and leave evidence. Steps never reach into a simulator; they use only `target.pbx`.
 */
export class PbxWorld extends World<PbxWorldParameters> implements WorldPort {
  opened: OpenedTarget | undefined;
  /** The last reply of the data endpoint. */
  reply: EndpointReply | undefined;
  /** Every reply of the data endpoint in this scenario, oldest first (property runs included). */
  readonly replies: EndpointReply[] = [];
  /** The last XML-RPC exchange. */
  xmlrpc: XmlRpcExchange | undefined;
  /** Every XML-RPC exchange of the scenario, oldest first. */
  readonly xmlrpcExchanges: XmlRpcExchange[] = [];
  /** When set, each XML-RPC call first notes where the module log stands (control plane). */
  watchModuleLog = false;
  /** Values a scenario keeps between steps (earlier bodies, counts, ports). */
  readonly memory = new ScenarioMemory();
  /** Set by steps that move the data endpoint to another port during the scenario. */
  portChanged = false;
  /** The last body of each snapshot format received from the data endpoint, as text. */
  readonly latest = new Map<SnapshotKind, string>();
  /** Ports the harness holds as "another program" (released in After). */
  readonly heldPorts: HeldPort[] = [];
  /** Targets replaced during the scenario, closed in After. */
  readonly extraTargets: OpenedTarget[] = [];
  /** The fleet controller side of the scenario (steps/fleet), opened on first use. */
  fleet: FleetContext | undefined;
  /** The web-resolver side of the scenario (steps/resolver): reference endpoints and providers, opened on first use. */
  resolver: ResolverScenario | undefined;

  /** Makes `opened` the scenario's target; the previous one is closed after the scenario. */
  replaceTarget(opened: OpenedTarget): void {
    if (this.opened) this.extraTargets.push(this.opened);
    this.opened = opened;
  }

  get target(): Target {
    if (!this.opened) throw new Error('no target: the Before hook did not run');
    return this.opened.target;
  }

  get pbx(): PbxTarget {
    return this.target.pbx;
  }

  get control(): PbxControl | undefined {
    return this.pbx.control;
  }

  /**
   * Records that this step cannot verify its clause on this target and returns `'skipped'`
   * for the step to return. The report shows the scenario's clauses as *not verifiable*.
   */
  notVerifiable(reason: string): 'skipped' {
    const attachment: NotVerifiableAttachment = { reason };
    this.attach(JSON.stringify(attachment), NOT_VERIFIABLE_MEDIA_TYPE);
    return 'skipped';
  }

  /** The reason for a step that needs the control plane, for `notVerifiable`. */
  noControlReason(purpose: string): string {
    return `target "${this.target.name}" has no control plane; needed to ${purpose}`;
  }

  evidence(evidence: EvidenceAttachment): void {
    this.attach(JSON.stringify(boundedEvidence(evidence)), EVIDENCE_MEDIA_TYPE);
  }

  /** Where the data endpoint is now (it may move when the tile is cycled or the port changed). */
  async monitoringAddress(): Promise<MonitoringAddress> {
    const configured = this.pbx.monitoring;
    const control = this.control;
    if (control && (this.target.kind === 'embedded' || this.portChanged || !configured)) {
      const status = await control.endpointStatus();
      if (status.state === 'listening' && status.port !== null) {
        const host = configured?.host ?? status.host;
        return { host, port: status.port };
      }
      const last = this.memory.get(LAST_MONITORING_ADDRESS);
      if (last) return last;
    }
    if (!configured) throw new Error(`target "${this.target.name}" has no data endpoint address`);
    return configured;
  }

  /** Connects from `localAddress` (default: the listed client address), sends `send`, reads to EOF. */
  async connectToEndpoint(send: string | undefined, options: ExchangeOptions = {}): Promise<EndpointReply> {
    const address = options.address ?? (await this.monitoringAddress());
    if (!options.address) this.memory.set(LAST_MONITORING_ADDRESS, address);
    const localAddress =
      options.family === 6 ? undefined : (options.localAddress ?? this.pbx.listedClientAddress);
    // Against the embedded simulator a silent client does not sleep through the raw-mode grace
    // (MON-RAW-MODE; MON-UNSPEC-RAW-DETECTION): the grace runs on the PBX's duration clock, which
    // the harness advances while the client stays silent. The client is exactly as silent, and
    // the PBX still answers raw only once its grace has passed on its clock. The ticks pass the
    // grace of every open connection: no step runs a silent client beside another client.
    const silentClock = send === undefined ? this.pbx.durationClock : undefined;
    const tcp = await tcpExchange({
      host: address.host,
      port: address.port,
      ...(localAddress ? { localAddress } : {}),
      ...(options.family ? { family: options.family } : {}),
      ...(send !== undefined ? { send } : {}),
      ...(silentClock ? { whileSilent: () => silentClock.advance(SILENT_STEP_MS) } : {}),
      timeoutMs: options.timeoutMs ?? READ_TIMEOUT_MS,
    });
    const http = send === undefined ? undefined : parseHttpResponse(tcp.bytes);
    const reply: EndpointReply = {
      mode: send === undefined ? 'raw' : 'http',
      request: send ?? '(nothing sent)',
      tcp,
      ...(http ? { http } : {}),
      body: http ? http.body : tcp.bytes,
    };
    const kind = classifySnapshot(reply.body);
    if (kind !== 'other') this.latest.set(kind, reply.body.toString('utf8'));
    this.reply = reply;
    this.replies.push(reply);
    if (options.evidence !== false) {
      this.evidence({
        exchange: `TCP ${address.host}:${address.port} from ${localAddress ?? 'any'}${send === undefined ? ' (raw)' : ''}`,
        request: reply.request,
        response: bytesAsEvidence(tcp.bytes),
        details: { outcome: describeTcpOutcome(tcp) },
      });
    }
    return reply;
  }

  /** Sends `<method> <target> HTTP/1.1` over a raw socket and reads until the server closes. */
  async httpRequest(
    method: string,
    requestTarget: string,
    options: ExchangeOptions = {},
  ): Promise<EndpointReply> {
    const address = options.address ?? (await this.monitoringAddress());
    if (!options.address) this.memory.set(LAST_MONITORING_ADDRESS, address);
    const host = address.host.includes(':') ? `[${address.host}]` : address.host;
    return this.connectToEndpoint(buildHttpRequest(method, requestTarget, `${host}:${address.port}`), {
      ...options,
      address,
    });
  }

  /** The `?<authParam>=<value>` path for an XML-RPC call. */
  xmlRpcPath(auth: XmlRpcAuth): string {
    const { path, authParam, login, password } = this.pbx.xmlrpc;
    switch (auth.kind) {
      case 'none':
        return path;
      case 'valid':
        return `${path}?${authParam}=${xmlRpcAuthValue(login, password)}`;
      case 'credentials':
        return `${path}?${authParam}=${xmlRpcAuthValue(auth.login, auth.password)}`;
      case 'value':
        return `${path}?${authParam}=${auth.value}`;
    }
  }

  /** Calls `<instance>.<command>` (or a full method name given with a dot) and keeps the exchange. */
  async callXmlRpc(
    method: string,
    params: unknown[],
    auth: XmlRpcAuth,
    options: ExchangeOptions = {},
  ): Promise<XmlRpcExchange> {
    const path = this.xmlRpcPath(auth);
    let logSeqBefore: number | undefined;
    if (this.watchModuleLog && this.control) {
      logSeqBefore = (await this.control.moduleLog()).at(-1)?.seq ?? 0;
    }
    const outcome = await callXmlRpc({
      webUrl: this.pbx.webUrl,
      path,
      method,
      params,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      timeoutMs: options.timeoutMs ?? XMLRPC_TIMEOUT_MS,
    });
    const exchange: XmlRpcExchange = {
      method,
      params,
      outcome,
      ...(logSeqBefore !== undefined ? { logSeqBefore } : {}),
    };
    this.xmlrpc = exchange;
    this.xmlrpcExchanges.push(exchange);
    if (options.evidence !== false) {
      this.evidence({
        exchange: `XML-RPC ${method}`,
        request: `POST ${redactAuth(path, this.pbx.xmlrpc.authParam)}\n${JSON.stringify(params)}`,
        response: JSON.stringify(outcome, null, 1),
      });
    }
    return exchange;
  }

  /** The fully qualified method name for a command under the target's instance name. */
  methodName(command: string, instance = this.pbx.xmlrpc.instanceName): string {
    return `${instance}.${command}`;
  }
}

/** Secrets never go into evidence: the credential value is cut after the login. */
export function redactAuth(path: string, authParam: string): string {
  const escaped = authParam.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return path.replace(new RegExp(`(${escaped}=[^:&%]*)(?::|%3A)[^&]*`, 'i'), '$1:<redacted>');
}
