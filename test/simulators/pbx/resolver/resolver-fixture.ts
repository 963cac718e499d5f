import type { TestContext } from 'node:test';
import {
  type CustomerEndpointHandle,
  type CustomerEndpointOptions,
  start,
} from '../../../../simulators/customer-endpoint/index.ts';
import {
  type ResolutionResult,
  type ResolveOptions,
  resolveNumber,
} from '../../../../simulators/pbx/resolver/resolve-number.ts';
import type { ResolverProvider } from '../../../../simulators/pbx/state/provider-config.ts';

/** A customer endpoint on 127.0.0.1:0, closed after the test. */
export async function endpoint(
  t: TestContext,
  options: CustomerEndpointOptions = {},
): Promise<CustomerEndpointHandle> {
  const handle = await start(options);
  t.after(() => handle.close());
  return handle;
}

/** A provider reading `"name":"…"` into the last name, with overrides. */
export function provider(url: string, overrides: Partial<ResolverProvider> = {}): ResolverProvider {
  return {
    id: 'crm',
    type: 'HTTP',
    url,
    parsers: [{ matcher: '"name":"(.*?)"', formatter: '\\1' }],
    ...overrides,
  };
}

/** Resolves `number` (default a Berlin number) against one provider, country code 49. */
export function resolveWith(
  p: ResolverProvider,
  number = '030 1234567',
  options: ResolveOptions = {},
): Promise<ResolutionResult> {
  return resolveNumber(
    { countryCode: '49', providers: [p], addressBook: [], addressBookFallback: false },
    number,
    options,
  );
}

/** The messages of a resolution's search log, one string per line `level step message`. */
export function logText(result: ResolutionResult): string {
  return result.log.map((e) => `${e.level} ${e.step} ${e.message}`).join('\n');
}
