import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedHttpFetch,
  type RecordedXmlRpcAnswer,
  type Recording,
  type RecordingSample,
} from '../../simulators/pbx/index.ts';
import { parseAgentText, parsePbxSections, sectionLines } from '../agent-text/index.ts';
import { xmlRpcAuthValue } from '../clients/xmlrpc-auth-value.ts';
import type { TargetFile } from '../core/target-file.ts';
import { type Captured, toStream } from './capture-tcp.ts';
import type { RawSample } from './record-target.ts';
import { decodeMethodResponse } from './record-target.ts';
import type { Redactor } from './redact.ts';

const PHONE = /^\+?\d{6,}$/;
const PSEUDONYM_CHANNEL = /\/chan-[0-9a-f]{8}$/;
const IPV4_EXACT = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * Turns fetched samples into a recording, redacted (issue 23): first every sensitive value of the
 * target file and of the answers is found (credentials, host names, serial numbers, addresses,
 * owner and user names, phone numbers, channel names), then every text of every sample is
 * redacted with one redactor, so a value has one pseudonym in all faces and samples.
 */
export async function buildRecording(
  target: TargetFile,
  samples: RawSample[],
  redactor: Redactor,
  meta: { toolVersion: string; keyGiven: boolean; ruleNames: string[] },
): Promise<Recording> {
  discoverSecrets(target, samples, redactor);
  const redacted: RecordingSample[] = [];
  for (const sample of samples) redacted.push(await redactSample(sample, redactor, target));
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    recordedAt: samples[0]?.recordedAt ?? new Date().toISOString(),
    tool: { name: 'pbx-conformance', version: meta.toolVersion },
    target: { name: redactor.apply(target.name), instanceName: target.pbx.xmlrpc.instanceName },
    redaction: {
      key: meta.keyGiven ? 'given' : 'per-run',
      rules: meta.ruleNames,
      counts: redactor.counts(),
    },
    samples: redacted,
  };
}

function discoverSecrets(target: TargetFile, samples: RawSample[], redactor: Redactor): void {
  const texts: string[] = [];
  const jsons: unknown[] = [];
  for (const sample of samples) {
    if (sample.raw) texts.push(sample.raw.bytes.toString('utf8'));
    for (const fetch of sample.http) {
      const body = splitHttp(fetch.captured.bytes)?.body ?? fetch.captured.bytes;
      if (fetch.target.includes('json')) {
        try {
          jsons.push(JSON.parse(body.toString('utf8')));
        } catch {
          // not JSON (a raw-only target answers every request with agent text)
        }
      }
      texts.push(body.toString('utf8'));
    }
    const data = sample.xmlrpc.getMonitoringData?.value as { data?: unknown } | undefined;
    if (typeof data?.data === 'string') texts.push(data.data);
  }
  // Values that only look like addresses: versions.
  for (const text of texts) {
    const agent = parseAgentText(text);
    const pbx = parsePbxSections(agent);
    for (const key of ['pbx_version', 'update_latest_version'])
      redactor.protect(pbx.pbx?.facts.get(key) ?? '');
    for (const module of pbx.modules ?? []) redactor.protect(module.version);
    for (const key of ['java_version', 'java_vm_version']) {
      for (const token of pbx.java
        ? (text.match(new RegExp(`^${key} (.*)$`, 'm'))?.[1] ?? '').split(/[^0-9.]+/)
        : [])
        redactor.protect(token);
    }
  }
  for (const json of jsons) {
    const body = json as Record<string, unknown>;
    for (const key of ['pbxVersion', 'pbxLatestVersion']) redactor.protect(String(body[key] ?? ''));
    for (const module of asArray(body['modules'])) redactor.protect(String(module['version'] ?? ''));
    for (const token of String(body['javaVersion'] ?? '').split(/[^0-9.]+/)) redactor.protect(token);
  }
  // The target file: its name, addresses and credentials.
  const { pbx } = target;
  redactor.addLiteral(target.name, 'host');
  for (const url of [pbx.webUrl, pbx.controlUrl]) {
    if (!url) continue;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    redactor.addLiteral(host, IPV4_EXACT.test(host) ? 'address' : 'host');
  }
  for (const address of [
    pbx.monitoring.host,
    pbx.listedClientAddress,
    pbx.unlistedClientAddress,
    ...(pbx.edgeClientAddresses ?? []),
  ]) {
    if (address) redactor.addLiteral(address, IPV4_EXACT.test(address) ? 'address' : 'host');
  }
  redactor.addLiteral(pbx.xmlrpc.password, 'credential');
  // The credentials values sent (right and deliberately wrong), should any answer or error echo them.
  for (const password of [pbx.xmlrpc.password, `${pbx.xmlrpc.password}-wrong`])
    redactor.addLiteral(xmlRpcAuthValue(pbx.xmlrpc.login, password).split(':')[1], 'credential');
  redactor.addLiteral(pbx.controlToken, 'credential');
  const maintenance = target['maintenance'] as { token?: string } | undefined;
  redactor.addLiteral(maintenance?.token, 'credential');
  // What the PBX says about itself.
  for (const text of texts) {
    const agent = parseAgentText(text);
    for (const line of sectionLines(agent, 'monitor_agent') ?? []) {
      const hostname = /^Hostname:\s*(.+)$/.exec(line)?.[1];
      redactor.addLiteral(hostname?.trim(), 'host');
    }
    const pbx = parsePbxSections(agent);
    const facts = pbx.pbx?.facts;
    redactor.addLiteral(facts?.get('hostname'), 'host');
    const serial = facts?.get('appliance_serial_number');
    if (serial && serial !== 'n/a') redactor.addLiteral(serial, 'serial');
    redactor.addLiteral(facts?.get('owner'), 'user');
    for (const line of sectionLines(agent, 'local') ?? []) {
      redactor.addLiteral(/Hardware ID (\S+)/.exec(line)?.[1], 'serial');
    }
    for (const peer of pbx.peers?.peers ?? [])
      if (PHONE.test(peer.name)) redactor.addLiteral(peer.name, 'phone');
    for (const channel of pbx.channels?.channels ?? []) {
      if (PSEUDONYM_CHANNEL.test(channel)) continue;
      for (const number of channel.match(/\+?\d{6,}/g) ?? []) redactor.addLiteral(number, 'phone');
      redactor.addLiteral(channel, 'channel');
    }
    for (const line of sectionLines(agent, 'pbx_sip_provider') ?? []) discoverUri(line, redactor);
    for (const backup of pbx.backups ?? []) discoverLocation(backup.location, redactor);
  }
  for (const json of jsons) {
    const body = json as Record<string, unknown>;
    redactor.addLiteral(stringOf(body['hostname']), 'host');
    const serial = stringOf(body['applianceSerialNumber']);
    if (serial !== 'n/a') redactor.addLiteral(serial, 'serial');
    redactor.addLiteral(stringOf(body['licenseOwner']), 'user');
    redactor.addLiteral(stringOf(body['hardwareId']), 'serial');
    for (const peer of asArray(body['peers'])) {
      const name = stringOf(peer['name']);
      if (name && PHONE.test(name)) redactor.addLiteral(name, 'phone');
    }
    for (const channel of Array.isArray(body['channelsActive']) ? body['channelsActive'] : []) {
      if (typeof channel !== 'string' || PSEUDONYM_CHANNEL.test(channel)) continue;
      for (const number of channel.match(/\+?\d{6,}/g) ?? []) redactor.addLiteral(number, 'phone');
      redactor.addLiteral(channel, 'channel');
    }
    for (const entry of asArray(body['sipProviderEntries']))
      discoverUri(stringOf(entry['uri']) ?? '', redactor);
    for (const backup of asArray(body['backups']))
      discoverLocation(stringOf(backup['location']) ?? '', redactor);
  }
}

/** `sip:<user>@<host>`: the user part is a phone number or a user name, the host a host name. */
function discoverUri(text: string, redactor: Redactor): void {
  for (const match of text.matchAll(/sips?:([^@\s;>]+)@([^\s:;>]+)/g)) {
    const [, user = '', host = ''] = match;
    redactor.addLiteral(user, PHONE.test(user) ? 'phone' : 'user');
    if (PHONE.test(user)) redactor.addLiteral(user.replace(/^\+/, ''), 'phone');
    if (!IPV4_EXACT.test(host)) redactor.addLiteral(host, 'host');
  }
}

/** A backup location `host:/share` or `user@host`: the host (addresses are found anywhere). */
function discoverLocation(location: string, redactor: Redactor): void {
  const host = /^([A-Za-z][A-Za-z0-9.-]*[A-Za-z0-9]):/.exec(location)?.[1];
  if (host) redactor.addLiteral(host, 'host');
}

async function redactSample(
  sample: RawSample,
  redactor: Redactor,
  target: TargetFile,
): Promise<RecordingSample> {
  const result: RecordingSample = { atMs: sample.atMs, recordedAt: sample.recordedAt };
  if (sample.raw || sample.endpointError) {
    result.dataEndpoint = {
      ...(sample.raw ? { raw: toStream(sample.raw, redactBytes(sample.raw.bytes, redactor)) } : {}),
      http: sample.http.map(({ target: path, captured }) => redactFetch(path, captured, redactor)),
      ...(sample.endpointError ? { error: redactor.apply(sample.endpointError) } : {}),
    };
  }
  const xmlrpc: NonNullable<RecordingSample['xmlrpc']> = {};
  for (const [name, answer] of Object.entries(sample.xmlrpc)) {
    if (answer) xmlrpc[name as keyof typeof xmlrpc] = await redactXmlRpc(answer, redactor, target);
  }
  result.xmlrpc = xmlrpc;
  if (sample.maintenance) {
    const answer = sample.maintenance;
    result.maintenance = {
      commandList:
        'error' in answer
          ? { error: redactor.apply(answer.error) }
          : {
              status: answer.status,
              headers: redactHeaders(
                answer.headers,
                redactor,
                Buffer.byteLength(redactor.apply(answer.body)),
              ),
              body: redactor.apply(answer.body),
            },
    };
  }
  if (sample.package) result.package = sample.package;
  return result;
}

function redactBytes(bytes: Buffer, redactor: Redactor): Buffer {
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) return bytes;
  return Buffer.from(redactor.apply(text), 'utf8');
}

/** An HTTP answer split at the blank line after its head. */
export function splitHttp(bytes: Buffer): { head: string; separator: string; body: Buffer } | undefined {
  if (!bytes.subarray(0, 5).equals(Buffer.from('HTTP/'))) return undefined;
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  const [at, separator] = crlf >= 0 && (lf < 0 || crlf < lf) ? [crlf, '\r\n\r\n'] : [lf, '\n\n'];
  if (at < 0) return undefined;
  return {
    head: bytes.subarray(0, at).toString('latin1'),
    separator,
    body: bytes.subarray(at + separator.length),
  };
}

function redactFetch(path: string, captured: Captured, redactor: Redactor): RecordedHttpFetch {
  const parts = splitHttp(captured.bytes);
  if (!parts) {
    return { request: `GET ${path}`, ...toStream(captured, redactBytes(captured.bytes, redactor)) };
  }
  const body = redactBytes(parts.body, redactor);
  const lines = parts.head.split(/\r?\n/);
  const statusLine = lines[0] ?? '';
  const headers = redactHeaders(
    lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1).trim()];
    }),
    redactor,
    body.length,
  );
  const eol = parts.separator === '\r\n\r\n' ? '\r\n' : '\n';
  const head = `${[statusLine, ...headers.map(([name, value]) => `${name}: ${value}`)].join(eol)}${parts.separator}`;
  const bytes = Buffer.concat([Buffer.from(head, 'latin1'), body]);
  return {
    request: `GET ${path}`,
    statusLine,
    headers,
    bodyOffset: Buffer.byteLength(head, 'latin1'),
    ...toStream(captured, bytes),
  };
}

/** Header values redacted; `Set-Cookie` whole (a session is a credential); `Content-Length` follows the body. */
function redactHeaders(
  headers: [string, string][],
  redactor: Redactor,
  bodyLength: number,
): [string, string][] {
  return headers.map(([name, value]): [string, string] => {
    const lower = name.toLowerCase();
    if (lower === 'content-length') return [name, String(bodyLength)];
    if (lower === 'set-cookie' || lower === 'authorization') {
      redactor.addLiteral(value, 'credential');
    }
    return [name, redactor.apply(value)];
  });
}

async function redactXmlRpc(
  answer: RecordedXmlRpcAnswer,
  redactor: Redactor,
  target: TargetFile,
): Promise<RecordedXmlRpcAnswer> {
  if (answer.error !== undefined) return { ...answer, error: redactor.apply(answer.error) };
  let body = redactor.apply(answer.body);
  // The login is too short and common to replace everywhere; a fault may name it.
  if (answer.fault)
    body = body
      .split(target.pbx.xmlrpc.login)
      .join(redactor.pseudonym(target.pbx.xmlrpc.login, 'credential'));
  const decoded = await decodeMethodResponse(body);
  return {
    status: answer.status,
    headers: redactHeaders(answer.headers, redactor, Buffer.byteLength(body)),
    body,
    ...decoded,
  };
}

function asArray(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value)
    ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    : [];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
