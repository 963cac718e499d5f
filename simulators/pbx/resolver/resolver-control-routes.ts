import {
  describeValue,
  requireBoolean,
  requireObject,
  requireOneOf,
  requireString,
} from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { ControlResponse, ControlRoute } from '../../shared/http/control-route.ts';
import type { AddressBookEntry } from '../state/resolver-state.ts';
import { ProviderConfigError } from './provider-validation.ts';
import { UnknownProviderError } from './resolve-number.ts';
import type { Resolver, ResolverSettings } from './resolver.ts';

/** Runs an operation; configuration errors become 400, an unknown provider 404. */
async function guarded(operation: () => Promise<ControlResponse>): Promise<ControlResponse> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new ControlInputError(error.message);
    if (error instanceof UnknownProviderError)
      return { status: 404, body: { error: 'not_found', message: error.message } };
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

/**
 * Control-plane routes of the web resolver, for `createControlServer(…, { extraRoutes })`
 * (docs/resolver.md, "Control plane"):
 * - `GET|PATCH /resolver/settings` — `{countryCode, expertMode, addressBookFallback}`;
 * - `GET|PUT /resolver/providers` — the provider list (schemas/resolver-provider.schema.json;
 *   secrets come back as `***`);
 * - `POST /resolver/resolutions` `{number, trigger?, providerId?}` — runs a resolution
 *   (`call` default, `ui-integration`, or `settings-test` with `providerId`) → the result;
 * - `GET /resolver/caller-id` — the caller-ID result of the last call (`null` before any);
 * - `GET /resolver/search-log?since=&expert=` — search-log lines;
 * - `GET|PUT /resolver/address-book`;
 * - `DELETE /resolver/cache` — empties the cache of successful queries.
 */
export function resolverControlRoutes(resolver: Resolver): ControlRoute[] {
  return [
    {
      method: 'GET',
      path: '/resolver/settings',
      handle: async () => ({ status: 200, body: resolver.settings() }),
    },
    {
      method: 'PATCH',
      path: '/resolver/settings',
      handle: ({ body }) =>
        guarded(async () => {
          const fields = requireObject(body ?? {}, 'the request body', [
            'countryCode',
            'expertMode',
            'addressBookFallback',
          ]);
          const change: Partial<ResolverSettings> = {};
          if (fields['countryCode'] !== undefined)
            change.countryCode = requireString(fields['countryCode'], 'countryCode', 3);
          if (fields['expertMode'] !== undefined)
            change.expertMode = requireBoolean(fields['expertMode'], 'expertMode');
          if (fields['addressBookFallback'] !== undefined)
            change.addressBookFallback = requireBoolean(fields['addressBookFallback'], 'addressBookFallback');
          return { status: 200, body: resolver.setSettings(change) };
        }),
    },
    {
      method: 'GET',
      path: '/resolver/providers',
      handle: async () => ({ status: 200, body: resolver.providers() }),
    },
    {
      method: 'PUT',
      path: '/resolver/providers',
      handle: ({ body }) => guarded(async () => ({ status: 200, body: resolver.setProviders(body) })),
    },
    {
      method: 'POST',
      path: '/resolver/resolutions',
      handle: ({ body }) =>
        guarded(async () => {
          const fields = requireObject(body ?? {}, 'the request body', ['number', 'trigger', 'providerId']);
          const number = requireString(fields['number'], 'number', 64);
          const trigger =
            fields['trigger'] === undefined
              ? 'call'
              : requireOneOf(fields['trigger'], 'trigger', [
                  'call',
                  'ui-integration',
                  'settings-test',
                ] as const);
          let result: Awaited<ReturnType<Resolver['resolve']>>;
          if (trigger === 'settings-test') {
            const providerId = requireString(fields['providerId'], 'providerId', 64);
            result = await resolver.testProvider(providerId, number);
          } else result = await resolver.resolve(number, trigger);
          const { attempts, ...rest } = result;
          return {
            status: 200,
            body: {
              ...rest,
              attempts: attempts.map(({ evaluation, lookup, ...attempt }) => ({
                ...attempt,
                hits: evaluation?.hits ?? [],
                hops: lookup?.hops ?? [],
                timing: lookup?.timing ?? null,
              })),
            },
          };
        }),
    },
    {
      method: 'GET',
      path: '/resolver/caller-id',
      handle: async () => ({ status: 200, body: resolver.callerId() }),
    },
    {
      method: 'GET',
      path: '/resolver/search-log',
      handle: async ({ query }) => {
        const since = query.get('since') ?? '0';
        if (!/^\d{1,15}$/.test(since))
          throw new ControlInputError(`since must be a non-negative integer, got ${describeValue(since)}`);
        const expert = query.get('expert');
        if (expert !== null && expert !== 'true' && expert !== 'false')
          throw new ControlInputError(`expert must be true or false, got ${describeValue(expert)}`);
        return {
          status: 200,
          body: resolver.searchLog(Number(since), expert === null ? undefined : expert === 'true'),
        };
      },
    },
    {
      method: 'GET',
      path: '/resolver/address-book',
      handle: async () => ({ status: 200, body: resolver.addressBook() }),
    },
    {
      method: 'PUT',
      path: '/resolver/address-book',
      handle: async ({ body }) => {
        resolver.setAddressBook(checkAddressBook(body));
        return { status: 200, body: resolver.addressBook() };
      },
    },
    {
      method: 'DELETE',
      path: '/resolver/cache',
      handle: async () => {
        resolver.clearCache();
        return { status: 204 };
      },
    },
  ];
}
