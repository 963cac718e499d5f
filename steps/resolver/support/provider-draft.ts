import type { ResolverProvider } from './resolver-control.ts';

/** The record every reference endpoint answers unless a scenario says otherwise. */
export const DEFAULT_RECORD = { name: 'Anna Schmidt', company: 'Beispiel GmbH' } as const;
export const DEFAULT_BODY = JSON.stringify(DEFAULT_RECORD);

/** The parser of a default provider: the JSON member `name` (RESOLVER-EVAL-GROUPS, `\1`). */
export const NAME_PARSER = { matcher: '"name"\\s*:\\s*"([^"]*)"', formatter: '\\1' } as const;

/**
 * Field mappings spelled out, so no scenario depends on a default the spec does not give: the
 * first parser's result is the last name.
 */
export const LAST_NAME_MAPPING = { firstName: '', lastName: '{0}', company: '' } as const;

/** The path and query of a default provider's URL, below its endpoint. */
export const DEFAULT_URL = '/lookup?tel={tel}';

/**
 * A provider as a scenario builds it before it goes to the PBX: which reference endpoint it
 * points at, its URL template relative to that endpoint (or absolute), and the fields a scenario
 * set. Everything a scenario does not set stays unset, so defaults are the PBX's own
 * (RESOLVER-METHOD-DEFAULT, RESOLVER-FORMAT-DEFAULT, RESOLVER-TIMEOUT-DEFAULT).
 */
export interface ProviderDraft {
  id: string;
  endpoint: string;
  url: string;
  config: Omit<Partial<ResolverProvider>, 'id' | 'url' | 'type'>;
}

export function defaultDraft(id: string, endpoint: string): ProviderDraft {
  return {
    id,
    endpoint,
    url: DEFAULT_URL,
    config: { parsers: [{ ...NAME_PARSER }], fieldMappings: { ...LAST_NAME_MAPPING } },
  };
}

function onOff(value: string, key: string): boolean {
  if (/^(on|yes|true)$/i.test(value)) return true;
  if (/^(off|no|false)$/i.test(value)) return false;
  throw new Error(`"${key}" takes on or off, got "${value}"`);
}

function setField(
  draft: ProviderDraft,
  id: string,
  change: { value?: string; prefix?: string; suffix?: string },
) {
  const fields = { ...draft.config.fields };
  fields[id] = { value: '', ...fields[id], ...change };
  draft.config.fields = fields;
}

/**
 * Applies one row of a provider table (`| method | POST |`): method, number format,
 * authentication, user name, password, security token, URL, timeout, cache, save in address book,
 * verify certificate, enabled, `field <id>`, `prefix of <id>`, `suffix of <id>`.
 */
export function applySetting(draft: ProviderDraft, key: string, value: string): void {
  const field = /^(field|prefix of|suffix of) ([A-Za-z0-9_.-]+)$/.exec(key);
  if (field) {
    const [, kind, id] = field as unknown as [string, string, string];
    setField(
      draft,
      id,
      kind === 'field' ? { value } : kind === 'prefix of' ? { prefix: value } : { suffix: value },
    );
    return;
  }
  switch (key) {
    case 'method':
      draft.config.method = value as ResolverProvider['method'];
      return;
    case 'number format':
      draft.config.numberFormat = value as ResolverProvider['numberFormat'];
      return;
    case 'authentication':
      draft.config.authentication = value as ResolverProvider['authentication'];
      return;
    case 'user name':
      setField(draft, 'username', { value });
      return;
    case 'password':
      setField(draft, 'password', { value });
      return;
    case 'security token':
      setField(draft, 'securityToken', { value });
      return;
    case 'URL':
      draft.url = value;
      return;
    case 'timeout':
      if (!/^\d+$/.test(value)) throw new Error(`timeout takes milliseconds, got "${value}"`);
      draft.config.timeoutMs = Number(value);
      return;
    case 'cache':
      draft.config.cache = onOff(value, key);
      return;
    case 'save in address book':
      draft.config.saveToAddressBook = onOff(value, key);
      return;
    case 'verify certificate':
      draft.config.verifyCertificate = onOff(value, key);
      return;
    case 'enabled':
      draft.config.enabled = onOff(value, key);
      return;
    default:
      throw new Error(`unknown provider setting "${key}"`);
  }
}

/** The provider the PBX gets: the template resolved against its endpoint's base URL. */
export function buildProvider(draft: ProviderDraft, endpointBase: string): ResolverProvider {
  const url = /^https?:\/\//i.test(draft.url) ? draft.url : `${endpointBase}${draft.url}`;
  return {
    parsers: [],
    ...structuredClone(draft.config),
    id: draft.id,
    type: 'HTTP',
    url,
  } as ResolverProvider;
}
