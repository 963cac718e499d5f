/** The web resolver of the simulated PBX (web-resolver.md; docs/resolver.md). Named exports only. */

export {
  maskProvider,
  type NumberFormat,
  normaliseProvider,
  type ResolverProvider,
  TIMEOUT_DEFAULT_MS,
} from '../state/provider-config.ts';
export type { CallerIdResult, ResolverState, SearchLogEntry } from '../state/resolver-state.ts';
export { parseChallenges } from './auth-challenge.ts';
export { digestAuthorization, digestResponse, selectDigestChallenge } from './digest-auth.ts';
export { type Evaluation, evaluateBody, type ParserHit } from './evaluate-body.ts';
export { type LookupResult, performLookup } from './fetch-lookup.ts';
export { composeName, displayName, fillMapping } from './field-mappings.ts';
export { applyFormatter } from './formatter.ts';
export { decodeHtml } from './html-decode.ts';
export { type JavaRegexReading, type RegexNote, readJavaRegex } from './java-regex-check.ts';
export { formatNumber, numberForms, type ParsedNumber, parseNumber } from './number-format.ts';
export { ProviderConfigError, validateProvider, validateProviders } from './provider-validation.ts';
export { NO_RESULT_MESSAGE, type ProviderOutcome } from './query-provider.ts';
export { ResolutionCache } from './resolution-cache.ts';
export {
  type ResolutionResult,
  type ResolutionTrigger,
  type ResolverInput,
  resolveNumber,
  UnknownProviderError,
} from './resolve-number.ts';
export { Resolver, type ResolverOptions, type ResolverSettings } from './resolver.ts';
export { resolverEffects } from './resolver-effects.ts';
export { DEFAULT_LIMITS, type ResolverLimits } from './resolver-limits.ts';
export { RESOLVER_OPERATIONS } from './resolver-operations.ts';
export { buildUrl, encodeValue } from './url-template.ts';
