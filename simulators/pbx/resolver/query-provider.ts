import type { Clock } from '../../shared/clock.ts';
import { ALWAYS_SECRET_FIELDS, type NormalisedProvider } from '../state/provider-config.ts';
import type { ResolvedName } from '../state/resolver-state.ts';
import { clientErrorHint } from './client-error-hint.ts';
import { type Evaluation, evaluateBody } from './evaluate-body.ts';
import { type LookupResult, performLookup } from './fetch-lookup.ts';
import { formatNumber, type ParsedNumber } from './number-format.ts';
import type { ResolverLimits } from './resolver-limits.ts';
import type { SearchLogger } from './search-logger.ts';
import { buildUrl, UrlTemplateError } from './url-template.ts';

/** The message of a 2xx answer without any parser result (RESOLVER-NO-RESULT). */
export const NO_RESULT_MESSAGE = 'Query did not provide any search results';

export type ProviderState = 'resolved' | 'no-result' | 'failed';

/** What one provider query gave. */
export interface ProviderOutcome {
  provider: string;
  state: ProviderState;
  /** The number as sent, in the provider's format. */
  number: string;
  /** The request URL with secrets masked; `null` when it could not be built. */
  url: string | null;
  status: number | null;
  /** Failure reason, or the no-result message. */
  reason: string | null;
  /** The 4xx hint (RESOLVER-4XX-HINT). */
  hint: string | null;
  name: ResolvedName | null;
  variables: string[];
  uiValues: Record<string, string>;
  fromCache: boolean;
  evaluation: Evaluation | null;
  lookup: LookupResult | null;
}

export interface QueryContext {
  limits: ResolverLimits;
  trustedCa?: readonly string[];
  /** Count matches per parser up to this number (resolver-check); default 1. */
  countUpTo?: number;
  /** The lookup is timed on it (`ResolveOptions.durationClock`). */
  durationClock: Clock;
}

function fieldValue(provider: NormalisedProvider, id: string): string {
  return provider.fields[id]?.value ?? '';
}

/**
 * Queries one provider for one number (RESOLVER-TRIGGER-RESOLUTION): number format, URL, request,
 * evaluation, and the outcome of the states table: resolved, no result, or failed (a non-2xx
 * answer whose body is never evaluated, RESOLVER-NON-2XX-FAILED; a 4xx adds a hint). Every step
 * goes to the search log.
 */
export async function queryProvider(
  provider: NormalisedProvider,
  number: ParsedNumber,
  context: QueryContext,
  log: SearchLogger,
): Promise<ProviderOutcome> {
  const formatted = formatNumber(number, provider.numberFormat) ?? '';
  const outcome: ProviderOutcome = {
    provider: provider.id,
    state: 'failed',
    number: formatted,
    url: null,
    status: null,
    reason: null,
    hint: null,
    name: null,
    variables: [],
    uiValues: {},
    fromCache: false,
    evaluation: null,
    lookup: null,
  };
  log.info('number', `number ${formatted} (format ${provider.numberFormat})`, { number: formatted });
  const secretIds = new Set(
    Object.entries(provider.fields)
      .filter(([id, f]) => f.secret || ALWAYS_SECRET_FIELDS.includes(id))
      .map(([id]) => id),
  );
  let url: ReturnType<typeof buildUrl>;
  try {
    // Whatever the method: placeholders are replaced in a POST URL too (RESOLVER-PH-POST-URL).
    url = buildUrl(provider.url, formatted, provider.fields, secretIds);
  } catch (error) {
    if (!(error instanceof UrlTemplateError)) throw error;
    outcome.reason = error.message;
    log.error('url', error.message);
    return outcome;
  }
  outcome.url = url.displayUrl;
  for (const name of url.unknownPlaceholders)
    log.warn('url', `the placeholder {${name}} names no field and stays in the URL`);
  const lookup = await performLookup(
    {
      method: provider.method,
      url,
      number: formatted,
      authentication: provider.authentication,
      username: fieldValue(provider, 'username'),
      password: fieldValue(provider, 'password'),
      token: fieldValue(provider, 'securityToken'),
      verifyCertificate: provider.verifyCertificate,
      timeoutMs: provider.timeoutMs,
      trustedCa: context.trustedCa,
      limits: context.limits,
      clock: context.durationClock,
    },
    log,
  );
  outcome.lookup = lookup;
  if (!lookup.ok) {
    outcome.reason = lookup.error;
    log.error('result', `lookup failed: ${lookup.error}`);
    return outcome;
  }
  outcome.status = lookup.status;
  if (lookup.body === null) {
    outcome.reason = `HTTP status ${lookup.status}`;
    if (lookup.status >= 400 && lookup.status <= 499) {
      outcome.hint = clientErrorHint(lookup.status);
      log.warn('hint', outcome.hint, { status: lookup.status });
    }
    log.error('result', `lookup failed: HTTP status ${lookup.status}`);
    return outcome;
  }
  const evaluation = await evaluateBody(lookup.body.text, provider.parsers, provider.fieldMappings, {
    matcherMs: context.limits.matcherMs,
    countUpTo: context.countUpTo,
  });
  outcome.evaluation = evaluation;
  for (const hit of evaluation.hits) {
    for (const note of hit.notes) {
      const text = `parser ${hit.index}: ${note.message}`;
      if (note.kind === 'translated')
        log.info('matcher', text, { construct: note.construct, kind: note.kind });
      else log.warn('matcher', text, { construct: note.construct, kind: note.kind });
    }
    if (hit.error) log.warn('parser', `parser ${hit.index}: ${hit.error}`);
    else if (!hit.matched)
      log.info('parser', `parser ${hit.index}: no match`, { parser: hit.index, hit: false });
    else
      log.info('parser', `parser ${hit.index}: {${hit.index}} = ${JSON.stringify(hit.result)}`, {
        parser: hit.index,
        hit: true,
        result: hit.result,
      });
  }
  outcome.variables = evaluation.variables;
  if (!evaluation.resolved) {
    outcome.state = 'no-result';
    outcome.reason = NO_RESULT_MESSAGE;
    log.warn('result', NO_RESULT_MESSAGE);
    return outcome;
  }
  outcome.state = 'resolved';
  outcome.name = evaluation.name;
  outcome.uiValues = evaluation.uiValues;
  if (evaluation.name.displayName === '')
    log.warn('result', 'resolved, but the field mappings compose an empty name; check them');
  log.info('result', `resolved: ${evaluation.name.displayName}`, {
    firstName: evaluation.name.firstName,
    lastName: evaluation.name.lastName,
    company: evaluation.name.company,
  });
  return outcome;
}
