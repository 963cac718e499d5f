import {
  type CustomerEndpointHandle,
  type EndpointConfig,
  type RecordedRequest,
  start,
} from '../../../simulators/customer-endpoint/index.ts';
import { truncateEvidence } from '../../support/evidence.ts';
import type { WorldPort } from '../../support/world-port.ts';
import { buildProvider, DEFAULT_BODY, defaultDraft, type ProviderDraft } from './provider-draft.ts';
import { describeRecords, maskSecrets } from './recorded-evidence.ts';
import type {
  ResolutionAnswer,
  ResolutionTrigger,
  ResolverControl,
  ResolverProvider,
  SearchLogEntry,
} from './resolver-control.ts';
import { type ResolverTarget, resolverTargetOf, type TlsPair } from './resolver-target.ts';

/** The endpoint and provider a scenario means when it names none. */
export const MAIN = 'main';

/** The answer of a fresh reference endpoint: 200, JSON (UTF-8), the default record. */
export const DEFAULT_ENDPOINT_CONFIG: EndpointConfig = {
  fallback: { body: DEFAULT_BODY, contentType: 'application/json; charset=utf-8' },
};

/** How a reference endpoint serves. */
export interface EndpointTransport {
  /** HTTPS with this certificate; `hosts`: a fresh self-signed one naming these hosts. */
  tls?: { hosts: string[] } | TlsPair;
  tlsVersions?: { min?: 'TLSv1.2' | 'TLSv1.3'; max?: 'TLSv1.2' | 'TLSv1.3' };
}

/** A recording customer endpoint started for the scenario. */
export interface ReferenceEndpoint {
  name: string;
  handle: CustomerEndpointHandle;
  /** Its base URL as the PBX reaches it (`endpointHost`, the bound port). */
  base: string;
}

/** One resolution of the scenario and what it left. */
export interface ResolutionRun {
  number: string;
  trigger: ResolutionTrigger;
  answer: ResolutionAnswer;
}

const SECRET_FIELDS = new Set(['password', 'securityToken']);

function maskProviderSecrets(providers: ResolverProvider[]): ResolverProvider[] {
  return providers.map((p) => {
    const copy = structuredClone(p);
    for (const [id, field] of Object.entries(copy.fields ?? {}))
      if ((SECRET_FIELDS.has(id) || field.secret) && field.value !== '') field.value = '***';
    return copy;
  });
}

/**
 * The resolver side of one scenario: the reference endpoints it started (closed after the
 * scenario), the providers it drafted (sent to the PBX before the next resolution), and the
 * resolutions it made. Everything goes through the target's resolver control plane; nothing
 * reaches into a simulated PBX.
 */
export class ResolverScenario {
  readonly endpoints = new Map<string, ReferenceEndpoint>();
  readonly drafts: ProviderDraft[] = [];
  readonly runs: ResolutionRun[] = [];
  /** Whether the PBX was configured through its control plane in this scenario. */
  touchedPbx = false;
  private sent: string | undefined;

  constructor(private readonly world: WorldPort) {}

  target(): ResolverTarget | string {
    return resolverTargetOf(this.world);
  }

  /** The control plane, or the reason it is missing. */
  control(): ResolverControl | string {
    const target = this.target();
    if (typeof target === 'string') return target;
    return target.control ?? target.unavailable ?? 'the target offers no resolver control plane';
  }

  async startEndpoint(name: string, transport: EndpointTransport = {}): Promise<ReferenceEndpoint | string> {
    const target = this.target();
    if (typeof target === 'string') return target;
    if (this.endpoints.has(name)) throw new Error(`the customer endpoint "${name}" is already running`);
    const handle = await start({
      host: target.bindHost,
      config: structuredClone(DEFAULT_ENDPOINT_CONFIG),
      ...(transport.tls ? { tls: transport.tls } : {}),
      ...(transport.tlsVersions ? { tlsVersions: transport.tlsVersions } : {}),
      ...(target.sharedClock ? { sharedClock: target.sharedClock } : {}),
    });
    const url = new URL(handle.urls.base);
    const host = target.endpointHost.includes(':') ? `[${target.endpointHost}]` : target.endpointHost;
    const endpoint = { name, handle, base: `${url.protocol}//${host}:${url.port}` };
    this.endpoints.set(name, endpoint);
    return endpoint;
  }

  endpoint(name: string): ReferenceEndpoint {
    const endpoint = this.endpoints.get(name);
    if (!endpoint)
      throw new Error(
        `no customer endpoint "${name}": start it first ("Given a customer endpoint${name === MAIN ? '' : ` "${name}"`}")`,
      );
    return endpoint;
  }

  /** The draft of provider `id`, made (pointing at `endpoint`) when the scenario had none. */
  draft(id: string, endpoint = MAIN): ProviderDraft {
    let draft = this.drafts.find((d) => d.id === id);
    if (!draft) {
      draft = defaultDraft(id, endpoint);
      this.drafts.push(draft);
    }
    this.sent = undefined;
    return draft;
  }

  /** Replaces provider `id` with a fresh default draft for `endpoint`, keeping its place in the order. */
  resetDraft(id: string, endpoint = MAIN): ProviderDraft {
    const fresh = defaultDraft(id, endpoint);
    const index = this.drafts.findIndex((d) => d.id === id);
    if (index >= 0) this.drafts[index] = fresh;
    else this.drafts.push(fresh);
    this.sent = undefined;
    return fresh;
  }

  /** The secret values of the drafted providers (password, security token, fields marked secret). */
  secrets(): string[] {
    return this.drafts.flatMap((d) =>
      Object.entries(d.config.fields ?? {})
        .filter(([id, field]) => SECRET_FIELDS.has(id) || field.secret)
        .map(([, field]) => field.value),
    );
  }

  providers(): ResolverProvider[] {
    return this.drafts.map((d) => buildProvider(d, this.endpoint(d.endpoint).base));
  }

  /** Sends the drafted providers when they changed since the last time. */
  async applyProviders(control: ResolverControl): Promise<void> {
    const providers = this.providers();
    const text = JSON.stringify(providers);
    if (text === this.sent) return;
    this.touchedPbx = true;
    await control.resolverSetProviders(providers);
    this.sent = text;
  }

  /** Runs one resolution through the control plane; attaches the exchange as evidence unless told not to. */
  async resolve(
    control: ResolverControl,
    number: string,
    trigger: ResolutionTrigger,
    options: { providerId?: string; evidence?: boolean } = {},
  ): Promise<ResolutionRun> {
    await this.applyProviders(control);
    const answer = await control.resolverResolve({
      number,
      trigger,
      ...(options.providerId === undefined ? {} : { providerId: options.providerId }),
    });
    const run: ResolutionRun = { number, trigger, answer };
    this.runs.push(run);
    if (options.evidence !== false) {
      this.world.evidence({
        exchange: `resolver ${trigger} of ${JSON.stringify(number)}${options.providerId ? ` with provider ${options.providerId}` : ''}`,
        request: JSON.stringify(maskProviderSecrets(this.providers()), null, 1),
        response: maskSecrets(JSON.stringify(answer, null, 1), this.secrets()),
        details: {
          recorded: truncateEvidence(
            [...this.endpoints.values()]
              .map((e) => describeRecords(e.name, e.handle.control.requests(), this.secrets()))
              .join('\n\n'),
          ),
        },
      });
    }
    return run;
  }

  lastRun(): ResolutionRun {
    const run = this.runs.at(-1);
    if (!run) throw new Error('no resolution has run in this scenario');
    return run;
  }

  /** The search-log lines of the last resolution, as the search-requests tab shows them. */
  async lastLog(control: ResolverControl): Promise<SearchLogEntry[]> {
    const { answer } = this.lastRun();
    const lines = (await control.resolverSearchLog()).filter((line) => line.resolution === answer.resolution);
    this.world.evidence({
      exchange: `search log of resolution ${answer.resolution}`,
      response: maskSecrets(
        lines.map((l) => `${l.seq} ${l.level} ${l.step}: ${l.message}`).join('\n'),
        this.secrets(),
      ),
    });
    return lines;
  }

  requests(name = MAIN): RecordedRequest[] {
    return this.endpoint(name).handle.control.requests();
  }

  async close(): Promise<void> {
    const endpoints = [...this.endpoints.values()];
    this.endpoints.clear();
    await Promise.all(endpoints.map((e) => e.handle.close()));
  }
}
