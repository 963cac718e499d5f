/**
 * The configuration of one search provider of type HTTP (web-resolver.md, "Search provider
 * configuration (type HTTP)"), as the provider file (schemas/resolver-provider.schema.json), the
 * state (`PbxState.resolver.providers`) and the control plane carry it. Optional fields take the
 * defaults of `normaliseProvider`.
 */

/** The three number formats (RESOLVER-FMT-PLUS, RESOLVER-FMT-00, RESOLVER-FMT-0). */
export const NUMBER_FORMATS = ['+xx', '00xx', '0'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

export const AUTH_METHODS = ['None', 'Basic', 'Digest', 'Bearer'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

export const HTTP_METHODS = ['GET', 'POST'] as const;
export type ProviderMethod = (typeof HTTP_METHODS)[number];

/** RESOLVER-TIMEOUT-RANGE, RESOLVER-TIMEOUT-DEFAULT. */
export const TIMEOUT_MIN_MS = 100;
export const TIMEOUT_MAX_MS = 1500;
export const TIMEOUT_DEFAULT_MS = 700;

/**
 * A configuration field usable as `{<fieldId>}` (RESOLVER-PH-FIELD, RESOLVER-PH-PREFIX-SUFFIX).
 * The ids `username` and `password` feed Basic and Digest, `securityToken` feeds Bearer (the
 * spec's "Security token" row).
 */
export interface ProviderField {
  value: string;
  prefix?: string;
  suffix?: string;
  /** Masked in the search log and reports; `password` and `securityToken` always are. */
  secret?: boolean;
}

/** One parser: matcher (DOTALL and MULTILINE), formatter with `\0`…`\9`, option UI. */
export interface ResolverParser {
  matcher: string;
  formatter: string;
  /** RESOLVER-EVAL-OPTION-UI: the result also goes to the UI integration and context URL. */
  optionUi?: boolean;
}

/** Templates over the index variables `{0}`, `{1}`, … (RESOLVER-EVAL-FIELD-MAPPINGS). */
export interface FieldMappings {
  firstName: string;
  lastName: string;
  company: string;
}

export interface ResolverProvider {
  /** Unique within the provider list; names the provider in the search log. */
  id: string;
  name?: string;
  /** Only enabled providers take part in a resolution (default true). */
  enabled?: boolean;
  type: 'HTTP';
  /** Query URL with `{tel}` and `{<fieldId>}` placeholders. */
  url: string;
  method?: ProviderMethod;
  numberFormat?: NumberFormat;
  authentication?: AuthMethod;
  fields?: Record<string, ProviderField>;
  /** RESOLVER-UNSPEC-VERIFY-DEFAULT: default `true` (docs/resolver.md). */
  verifyCertificate?: boolean;
  timeoutMs?: number;
  parsers: ResolverParser[];
  fieldMappings?: Partial<FieldMappings>;
  /** Caching of successful queries (default false). */
  cache?: boolean;
  /** Save a resolved result in the address book (default false). */
  saveToAddressBook?: boolean;
}

/** A provider with every default filled in. */
export type NormalisedProvider = Required<Omit<ResolverProvider, 'fieldMappings' | 'name'>> & {
  name: string;
  fieldMappings: FieldMappings;
};

/** The ids whose values are secrets whatever their `secret` flag says. */
export const ALWAYS_SECRET_FIELDS: readonly string[] = ['password', 'securityToken'];

export const DEFAULT_FIELD_MAPPINGS: FieldMappings = { firstName: '', lastName: '{0}', company: '' };

/**
 * Fills in the defaults: GET (RESOLVER-METHOD-DEFAULT), `+xx` (RESOLVER-FORMAT-DEFAULT), no
 * authentication, certificate check on (RESOLVER-UNSPEC-VERIFY-DEFAULT), 700 ms
 * (RESOLVER-TIMEOUT-DEFAULT), last name `{0}`, cache and address book off. A timeout outside
 * 100–1500 ms is clamped into the range (RESOLVER-UNSPEC-TIMEOUT-CONFIG); the schema and the
 * control plane refuse it earlier, so clamping only meets configurations built in code.
 */
export function normaliseProvider(provider: ResolverProvider): NormalisedProvider {
  const timeout = provider.timeoutMs ?? TIMEOUT_DEFAULT_MS;
  return {
    id: provider.id,
    name: provider.name ?? provider.id,
    enabled: provider.enabled ?? true,
    type: 'HTTP',
    url: provider.url,
    method: provider.method ?? 'GET',
    numberFormat: provider.numberFormat ?? '+xx',
    authentication: provider.authentication ?? 'None',
    fields: provider.fields ?? {},
    verifyCertificate: provider.verifyCertificate ?? true,
    timeoutMs: Number.isFinite(timeout)
      ? Math.min(TIMEOUT_MAX_MS, Math.max(TIMEOUT_MIN_MS, Math.round(timeout)))
      : TIMEOUT_DEFAULT_MS,
    parsers: provider.parsers,
    fieldMappings: { ...DEFAULT_FIELD_MAPPINGS, ...provider.fieldMappings },
    cache: provider.cache ?? false,
    saveToAddressBook: provider.saveToAddressBook ?? false,
  };
}

/** The clear values of a provider's secrets (non-empty only), for masking. */
export function providerSecrets(provider: Pick<ResolverProvider, 'fields'>): string[] {
  const secrets: string[] = [];
  for (const [id, field] of Object.entries(provider.fields ?? {})) {
    if ((field.secret || ALWAYS_SECRET_FIELDS.includes(id)) && field.value !== '') secrets.push(field.value);
  }
  return secrets;
}

/** A copy whose secret field values read `***` (control plane, reports). */
export function maskProvider<T extends Pick<ResolverProvider, 'fields'>>(provider: T): T {
  const copy = structuredClone(provider);
  for (const [id, field] of Object.entries(copy.fields ?? {})) {
    if ((field.secret || ALWAYS_SECRET_FIELDS.includes(id)) && field.value !== '') field.value = '***';
  }
  return copy;
}
