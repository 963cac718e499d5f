import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AUTH_METHODS,
  type AuthMethod,
  HTTP_METHODS,
  NUMBER_FORMATS,
  type NumberFormat,
  ProviderConfigError,
  type ProviderField,
  type ResolverProvider,
  readJavaRegex,
  validateProvider,
} from '../../simulators/pbx/index.ts';
import { HarnessError, oneLineMessage } from '../core/harness-error.ts';
import { ensureWritableDir } from '../report/ensure-writable-dir.ts';

/**
 * Options of `pbx-conformance resolver-check` (as commander hands them over). Flags override the
 * provider file field by field, so a file can leave secrets out and take them from a flag or the
 * environment (`PBX_RESOLVER_PASSWORD`, `PBX_RESOLVER_TOKEN`). A `--field` whose id ends in
 * `pass`, `password`, `secret`, `token` or `key` is masked in the output.
 */
export interface ResolverCheckOptions {
  provider?: string;
  url?: string;
  method?: string;
  format?: string;
  auth?: string;
  username?: string;
  password?: string;
  token?: string;
  /** `id=value`, repeatable. */
  field?: string[];
  matcher?: string[];
  /** Paired with `matcher` by position; default `\1` when the matcher has a group, else `\0`. */
  formatter?: string[];
  firstName?: string;
  lastName?: string;
  company?: string;
  timeout?: number | string;
  insecure?: boolean;
  /** PEM files of CAs to trust besides Node's roots. */
  ca?: string[];
  countryCode?: string;
  number?: string[];
  /** Default true; `--no-compare-formats` sets false. */
  compareFormats?: boolean;
  /** Print the report (the one result model) as JSON instead of text. */
  json?: boolean;
  /** Also write compatibility.json, compatibility.html and junit.xml into this folder. */
  reports?: string;
}

export interface CheckInput {
  provider: ResolverProvider;
  numbers: string[];
  countryCode: string;
  trustedCa: string[];
  compareFormats: boolean;
  json: boolean;
  /** The reports folder (checked writable before any request), or null. */
  reports: string | null;
}

/** Field ids given with `--field` that are masked like passwords (an API key in the URL). */
const SECRET_FIELD_ID = /(pass|password|secret|token|key)$/i;

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
): T | undefined {
  if (value === undefined) return undefined;
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!match)
    throw new HarnessError(`${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return match;
}

/**
 * Why a matcher does not compile as the check runs it (read as Java would, `readJavaRegex`), or
 * `null`. Such a parser could never match, so the check cannot judge the endpoint with it: a
 * harness error naming the matcher, not a "no parser matched" against the endpoint (issue 20,
 * item 15).
 */
function matcherCompileError(matcher: string): string | null {
  const reading = readJavaRegex(matcher);
  try {
    new RegExp(reading.source, reading.flags);
    return null;
  } catch (error) {
    return (error instanceof Error ? error.message : String(error)).replace(
      /^Invalid regular expression: /,
      '',
    );
  }
}

function hasGroup(matcher: string): boolean {
  return /\((?!\?)/.test(matcher.replace(/\\./g, ''));
}

/**
 * Builds the provider and numbers from the options (a `HarnessError` for anything unusable:
 * missing or invalid provider file, bad flag values, no number). The result is validated
 * against schemas/resolver-provider.schema.json like any provider.
 */
export async function checkInput(
  options: ResolverCheckOptions,
  io: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CheckInput> {
  let base: Partial<ResolverProvider> = {};
  if (options.provider) {
    const path = resolve(io.cwd, options.provider);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new HarnessError(
        `cannot read the provider file ${options.provider}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
    try {
      base = JSON.parse(text) as Partial<ResolverProvider>;
    } catch (error) {
      throw new HarnessError(
        `the provider file ${options.provider} is not JSON: ${(error as Error).message}`,
      );
    }
    if (base === null || typeof base !== 'object' || Array.isArray(base))
      throw new HarnessError(`the provider file ${options.provider} must hold one provider object`);
  } else if (!options.url) throw new HarnessError('give --provider FILE or --url URL');

  const provider: Record<string, unknown> = { id: 'check', type: 'HTTP', parsers: [], ...base };
  const fields: Record<string, ProviderField> = { ...(base.fields ?? {}) };
  if (options.url) provider['url'] = options.url;
  const method = oneOf(options.method?.toUpperCase(), HTTP_METHODS, '--method');
  if (method) provider['method'] = method;
  const format = oneOf(options.format, NUMBER_FORMATS, '--format') as NumberFormat | undefined;
  if (format) provider['numberFormat'] = format;
  const auth = oneOf(options.auth, AUTH_METHODS, '--auth') as AuthMethod | undefined;
  if (auth) provider['authentication'] = auth;
  const password = options.password ?? io.env['PBX_RESOLVER_PASSWORD'];
  const token = options.token ?? io.env['PBX_RESOLVER_TOKEN'];
  if (options.username !== undefined) fields['username'] = { value: options.username };
  if (password !== undefined && (options.password !== undefined || !fields['password']))
    fields['password'] = { value: password, secret: true };
  if (token !== undefined && (options.token !== undefined || !fields['securityToken']))
    fields['securityToken'] = { value: token, secret: true };
  for (const pair of options.field ?? []) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new HarnessError(`--field takes id=value, got ${JSON.stringify(pair)}`);
    const id = pair.slice(0, eq);
    const field: ProviderField = { ...fields[id], value: pair.slice(eq + 1) };
    if (SECRET_FIELD_ID.test(id)) field.secret = true;
    fields[id] = field;
  }
  if (Object.keys(fields).length > 0) provider['fields'] = fields;
  if (options.matcher?.length) {
    provider['parsers'] = options.matcher.map((matcher, i) => ({
      matcher,
      formatter: options.formatter?.[i] ?? (hasGroup(matcher) ? '\\1' : '\\0'),
    }));
  }
  const mappings = { ...(base.fieldMappings ?? {}) };
  if (options.firstName !== undefined) mappings.firstName = options.firstName;
  if (options.lastName !== undefined) mappings.lastName = options.lastName;
  if (options.company !== undefined) mappings.company = options.company;
  if (Object.keys(mappings).length > 0) provider['fieldMappings'] = mappings;
  if (options.timeout !== undefined) {
    const timeout = Number(options.timeout);
    if (!Number.isInteger(timeout))
      throw new HarnessError(
        `--timeout must be an integer number of ms, got ${JSON.stringify(options.timeout)}`,
      );
    provider['timeoutMs'] = timeout;
  }
  if (options.insecure) provider['verifyCertificate'] = false;

  let checked: ResolverProvider;
  try {
    checked = validateProvider(
      provider,
      options.provider ? `the provider file ${options.provider}` : 'the provider options',
    );
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new HarnessError(error.message);
    throw error;
  }
  if (checked.parsers.length === 0)
    throw new HarnessError('the provider has no parser: give --matcher or parsers in the file');
  checked.parsers.forEach((parser, index) => {
    const compileError = matcherCompileError(parser.matcher);
    if (compileError !== null)
      throw new HarnessError(
        `parser ${index}: the matcher ${JSON.stringify(parser.matcher)} does not compile: ${compileError}`,
      );
  });
  const numbers = options.number ?? [];
  if (numbers.length === 0) throw new HarnessError('give at least one --number');
  const countryCode = options.countryCode ?? '49';
  if (!/^[1-9]\d{0,2}$/.test(countryCode))
    throw new HarnessError(
      `--country-code must be 1 to 3 digits without a leading zero, got ${JSON.stringify(countryCode)}`,
    );
  const trustedCa: string[] = [];
  for (const file of options.ca ?? []) {
    try {
      trustedCa.push(await readFile(resolve(io.cwd, file), 'utf8'));
    } catch (error) {
      throw new HarnessError(
        `cannot read the CA file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  }
  return {
    provider: checked,
    numbers,
    countryCode,
    trustedCa,
    compareFormats: options.compareFormats ?? true,
    json: options.json ?? false,
    reports: await reportsDir(options.reports, io.cwd),
  };
}

/** The `--reports` folder resolved against `cwd`, checked writable before any request is sent. */
async function reportsDir(reports: string | undefined, cwd: string): Promise<string | null> {
  if (reports === undefined) return null;
  const dir = resolve(cwd, reports);
  try {
    await ensureWritableDir(dir);
  } catch (error) {
    throw new HarnessError(`the reports folder ${reports} cannot be written: ${oneLineMessage(error)}`);
  }
  return dir;
}
