import { request } from 'undici';
import { xmlRpcAuthValue } from '../clients/xmlrpc-auth-value.ts';
import { callXmlRpc, type XmlRpcOutcome } from '../clients/xmlrpc-call.ts';
import type { TargetFile } from '../core/target-file.ts';

/** Real-time limit of one preflight request. */
export const CREDENTIAL_CHECK_TIMEOUT_MS = 5_000;

/** One credential of the target file and what the target made of it. */
export interface CredentialCheck {
  /** e.g. `XML-RPC login "123"`, `fleet account partner`, `MCP token readWrite`; never a secret. */
  credential: string;
  /** `rejected`: the target refused it; `unknown`: no clear answer (left to the scenarios). */
  outcome: 'accepted' | 'rejected' | 'unknown';
  /** One line: what the target answered (status, fault), never a secret. */
  detail: string;
}

/** How one HTTP probe is sent; tests swap it. */
export type HttpProbe = (url: string, headers: Record<string, string>, body?: string) => Promise<number>;

/**
 * The credential preflight of `verify --target`: before any scenario runs, each credential the
 * target file names is tried once on its own interface (XML-RPC login, maintenance token, every
 * fleet account with a password, every MCP token). A credential the target rejects would turn
 * dozens of clauses into "expected false, got true" noise, so `verify` stops with one line per
 * rejected credential instead (exit 2). Answers that are no clear rejection (a timeout, a 500)
 * are `unknown` and left to the scenarios, where they become findings with evidence.
 * Secrets never appear in the result.
 */
export async function checkCredentials(
  target: TargetFile,
  probe: HttpProbe = httpStatus,
): Promise<CredentialCheck[]> {
  const checks: Array<Promise<CredentialCheck>> = [checkXmlRpc(target)];
  const maintenance = target['maintenance'] as { basePath?: string; token?: string } | undefined;
  if (maintenance?.token) {
    const base = (maintenance.basePath ?? '/fp/7ce0d8df/api/v1').replace(/\/+$/, '');
    const url = `${target.pbx.webUrl.replace(/\/+$/, '')}${base}/system-functions`;
    checks.push(httpCheck('maintenance token', probe(url, { authorization: `Bearer ${maintenance.token}` })));
  }
  const fleet = target['fleet'] as FleetSection | undefined;
  if (fleet) {
    const sites = `${fleet.apiUrl.replace(/\/+$/, '')}/api/v1/sites`;
    for (const [role, account] of Object.entries(fleet.accounts ?? {})) {
      if (typeof account?.password !== 'string') continue;
      const basic = Buffer.from(`${account.email}:${account.password}`).toString('base64');
      checks.push(httpCheck(`fleet account ${role}`, probe(sites, { authorization: `Basic ${basic}` })));
    }
    if (fleet.mcpUrl) {
      for (const [name, token] of Object.entries(fleet.mcpTokens ?? {})) {
        checks.push(
          httpCheck(
            `MCP token ${name}`,
            probe(
              fleet.mcpUrl,
              {
                authorization: `Bearer ${token}`,
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
              },
              MCP_INITIALIZE,
            ),
          ),
        );
      }
    }
  }
  return Promise.all(checks);
}

/** The rejected credentials as the lines `verify` prints, or none. */
export function rejectedCredentialLines(checks: readonly CredentialCheck[]): string[] {
  return checks
    .filter((check) => check.outcome === 'rejected')
    .map((check) => `credential rejected: ${check.credential} (${check.detail})`);
}

interface FleetSection {
  apiUrl: string;
  mcpUrl?: string;
  accounts?: Record<string, { email: string; password?: string } | undefined>;
  mcpTokens?: Record<string, string>;
}

const MCP_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-03-26',
    capabilities: {},
    clientInfo: { name: 'pbx-conformance-preflight', version: '0' },
  },
});

async function httpCheck(credential: string, status: Promise<number>): Promise<CredentialCheck> {
  try {
    const code = await status;
    if (code === 401 || code === 403) return { credential, outcome: 'rejected', detail: `HTTP ${code}` };
    if (code >= 200 && code < 300) return { credential, outcome: 'accepted', detail: `HTTP ${code}` };
    return { credential, outcome: 'unknown', detail: `HTTP ${code}` };
  } catch (error) {
    return { credential, outcome: 'unknown', detail: (error as Error).message };
  }
}

/**
 * XML-RPC has no status for "wrong login": the PBX answers with an error reply. So the configured
 * login is compared with a deliberately wrong password: when both get the same refusal, the
 * target treats the configured credentials as wrong. A refusal of the configured login that a
 * wrong password does not share is a finding for the scenarios, not a preflight stop.
 */
async function checkXmlRpc(target: TargetFile): Promise<CredentialCheck> {
  const { path, authParam, login, password, instanceName } = target.pbx.xmlrpc;
  const credential = `XML-RPC login "${login}"`;
  const call = (secret: string) =>
    callXmlRpc({
      webUrl: target.pbx.webUrl,
      path: `${path}?${authParam}=${xmlRpcAuthValue(login, secret)}`,
      method: `${instanceName}.GetMonitoringData`,
      params: [],
      timeoutMs: CREDENTIAL_CHECK_TIMEOUT_MS,
    });
  const configured = await call(password);
  if (configured.kind === 'value') return { credential, outcome: 'accepted', detail: 'answered with data' };
  if (configured.kind === 'transport-error')
    return { credential, outcome: 'unknown', detail: configured.message };
  const wrong = await call(`${password}\u0000not-the-password`);
  if (refusalShape(wrong) === refusalShape(configured)) {
    return {
      credential,
      outcome: 'rejected',
      detail: `answered as to a wrong password: ${refusalShape(configured)}`,
    };
  }
  return { credential, outcome: 'unknown', detail: refusalShape(configured) };
}

function refusalShape(outcome: XmlRpcOutcome): string {
  switch (outcome.kind) {
    case 'value':
      return 'data';
    case 'fault':
      return `fault ${String(outcome.faultCode)}`;
    case 'http-error':
      return `HTTP ${outcome.status ?? '?'}`;
    case 'transport-error':
      return 'no answer';
  }
}

async function httpStatus(url: string, headers: Record<string, string>, body?: string): Promise<number> {
  const response = await request(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    ...(body === undefined ? {} : { body }),
    headersTimeout: CREDENTIAL_CHECK_TIMEOUT_MS,
    bodyTimeout: CREDENTIAL_CHECK_TIMEOUT_MS,
  });
  await response.body.dump();
  return response.statusCode;
}
