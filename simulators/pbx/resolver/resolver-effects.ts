import { ControlRefusal } from '../../shared/control/control-error.ts';
import type { Effects } from '../../shared/control/control-operation.ts';
import { describeValue, requireObject, requireString } from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { AddressBookEntry } from '../state/resolver-state.ts';
import { ProviderConfigError } from './provider-validation.ts';
import { UnknownProviderError } from './resolve-number.ts';
import type { Resolver, ResolverSettings } from './resolver.ts';
import type { RESOLVER_OPERATIONS, ResolutionAnswer } from './resolver-operations.ts';

/** Runs an operation; configuration errors become 400, an unknown provider 404. */
async function guarded<T>(operation: () => T | Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new ControlInputError(error.message);
    if (error instanceof UnknownProviderError) throw new ControlRefusal(404, 'not_found', error.message);
    throw error;
  }
}

function checkAddressBook(value: unknown): AddressBookEntry[] {
  if (!Array.isArray(value) || value.length > 10_000)
    throw new ControlInputError(
      `the address book must be an array of at most 10000 entries, got ${describeValue(value)}`,
    );
  return value.map((item, i) => {
    const fields = requireObject(item, `entry ${i}`, [
      'number',
      'firstName',
      'lastName',
      'company',
      'source',
    ]);
    return {
      number: requireString(fields['number'], `entry ${i}.number`, 64),
      firstName: requireString(fields['firstName'] ?? '', `entry ${i}.firstName`, 256),
      lastName: requireString(fields['lastName'] ?? '', `entry ${i}.lastName`, 256),
      company: requireString(fields['company'] ?? '', `entry ${i}.company`, 256),
      source: requireString(fields['source'] ?? 'manual', `entry ${i}.source`, 64),
    };
  });
}

/** What each operation of `RESOLVER_OPERATIONS` does to the web resolver of one PBX. */
export function resolverEffects(resolver: Resolver): Effects<typeof RESOLVER_OPERATIONS> {
  return {
    resolverSettings: () => resolver.settings(),
    resolverSetSettings: (fields) =>
      guarded(() => {
        const change: Partial<ResolverSettings> = {};
        if (fields.countryCode !== undefined) change.countryCode = fields.countryCode;
        if (fields.expertMode !== undefined) change.expertMode = fields.expertMode;
        if (fields.addressBookFallback !== undefined) change.addressBookFallback = fields.addressBookFallback;
        return resolver.setSettings(change);
      }),
    resolverProviders: () => resolver.providers(),
    resolverSetProviders: (providers) => guarded(() => resolver.setProviders(providers)),
    resolverResolve: ({ number, trigger = 'call', providerId }) =>
      guarded(async (): Promise<ResolutionAnswer> => {
        let result: Awaited<ReturnType<Resolver['resolve']>>;
        if (trigger === 'settings-test') {
          result = await resolver.testProvider(requireString(providerId, 'providerId', 64), number);
        } else result = await resolver.resolve(number, trigger);
        const { attempts, ...rest } = result;
        return {
          ...rest,
          attempts: attempts.map(({ evaluation, lookup, ...attempt }) => ({
            ...attempt,
            hits: evaluation?.hits ?? [],
            hops: lookup?.hops ?? [],
            timing: lookup?.timing ?? null,
          })),
        } as ResolutionAnswer;
      }),
    resolverCallerId: () => resolver.callerId(),
    resolverSearchLog: ({ since, expert }) => resolver.searchLog(since ?? 0, expert),
    resolverAddressBook: () => resolver.addressBook(),
    resolverSetAddressBook(entries) {
      resolver.setAddressBook(checkAddressBook(entries));
      return resolver.addressBook();
    },
    resolverClearCache: () => resolver.clearCache(),
  };
}
