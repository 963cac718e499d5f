import type { EndpointBehaviour, RecordedRequest } from '../../../simulators/customer-endpoint/index.ts';
import type { ProviderDraft } from './provider-draft.ts';
import type { ResolutionAnswer, ResolutionTrigger, ResolverControl } from './resolver-control.ts';
import {
  DEFAULT_ENDPOINT_CONFIG,
  MAIN,
  type ReferenceEndpoint,
  type ResolverScenario,
} from './resolver-scenario.ts';

/** One resolution of a property run: how the endpoint answers, how the provider looks, which number. */
export interface RunSetup {
  countryCode?: string;
  /** Changes to the endpoint's default answer (every path without a route). */
  answer?: EndpointBehaviour;
  routes?: Record<string, EndpointBehaviour>;
  provider?: (draft: ProviderDraft, endpoint: ReferenceEndpoint) => void;
  number?: string;
  trigger?: ResolutionTrigger;
}

export interface RunOutcome {
  answer: ResolutionAnswer;
  /** What the main endpoint recorded during this run only. */
  records: RecordedRequest[];
  endpoint: ReferenceEndpoint;
}

/**
 * One run of a live property: resets the main reference endpoint (configuration, recordings,
 * digest nonces), applies the run's answer, country code and provider (caching switched off, so
 * no run is answered from an earlier one's cache entry), resolves once without
 * evidence (the property attaches its own) and returns what the PBX answered and the endpoint
 * recorded.
 */
export async function resolveOnce(
  control: ResolverControl,
  scenario: ResolverScenario,
  setup: RunSetup,
): Promise<RunOutcome> {
  let endpoint = scenario.endpoints.get(MAIN);
  if (!endpoint) {
    const started = await scenario.startEndpoint(MAIN);
    if (typeof started === 'string') throw new Error(started);
    endpoint = started;
  }
  const endpointControl = endpoint.handle.control;
  endpointControl.reset();
  endpointControl.configure({
    routes: { ...setup.routes },
    fallback: { ...DEFAULT_ENDPOINT_CONFIG.fallback, ...setup.answer },
  });
  if (setup.countryCode !== undefined) await control.resolverSetSettings({ countryCode: setup.countryCode });
  const draft = scenario.resetDraft(MAIN, MAIN);
  // Runs resolve the same number again and again: with the provider's cache off every run is
  // answered by a fresh request (RESOLVER-CACHE-OFF), whatever the PBX's default for the switch.
  draft.config.cache = false;
  setup.provider?.(draft, endpoint);
  const run = await scenario.resolve(control, setup.number ?? '030 1234567', setup.trigger ?? 'call', {
    evidence: false,
  });
  return { answer: run.answer, records: endpointControl.requests(), endpoint };
}
