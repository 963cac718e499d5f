import { z } from 'zod';
import { named, schemaFile } from '../../shared/control/control-fields.ts';
import type { ResolverProvider } from '../state/provider-config.ts';

// The inputs and answers of the resolver's control operations (resolver-operations.ts), named as
// the generated schemas/pbx-control.openapi.yaml names them.

const countryCode = z
  .string()
  .regex(/^[1-9][0-9]{0,2}$/, { error: 'must be 1 to 3 digits, not starting with 0' });

/** A provider as schemas/resolver-provider.schema.json gives it (the effect checks it further). */
export const Provider = schemaFile<ResolverProvider>('resolver-provider.schema.json');

export const ResolverSettings = named(
  'ResolverSettings',
  z.strictObject({
    countryCode: countryCode.describe('Digits without `+` (default 49).').meta({ examples: ['49'] }),
    expertMode: z.boolean().describe('The search log shows its expert lines (default false).'),
    addressBookFallback: z
      .boolean()
      .describe('The address book answers when no provider resolves (default true).'),
  }),
);

export const ResolutionTrigger = named(
  'ResolutionTrigger',
  z.enum(['call', 'ui-integration', 'settings-test']),
);

export const ResolutionState = named(
  'ResolutionState',
  z
    .enum(['resolved', 'no-result', 'failed', 'not-resolvable'])
    .describe(
      '`resolved`: at least one non-empty parser result (or a cache or address-book hit); `no-result`: answers without a result; `failed`: a non-2xx answer or a transport failure; `not-resolvable`: nothing to look up (empty, anonymous, letters).',
    ),
);

export const ResolvedName = named(
  'ResolvedName',
  z.strictObject({
    firstName: z.string(),
    lastName: z.string(),
    company: z.string(),
    displayName: z
      .string()
      .describe(
        '`First Last`, with the company in brackets when both exist, or the company alone (RESOLVER-UNSPEC-DISPLAY).',
      ),
  }),
);

export const UiValues = named(
  'UiValues',
  z.record(z.string(), z.string()).describe('Option-UI results by index variable (RESOLVER-EVAL-OPTION-UI).'),
);

export const ParserHit = named(
  'ParserHit',
  z.strictObject({
    index: z.int().min(0),
    matcher: z.string(),
    formatter: z.string(),
    matched: z.boolean(),
    match: z.string().nullable().describe('The whole first match, cut to 200 characters.'),
    result: z.string().describe('The index variable: formatter result, HTML-decoded and trimmed.'),
    matchCount: z.int().min(0).describe('Matches counted (only the first is used).'),
    optionUi: z.boolean(),
    notes: z
      .array(
        z.strictObject({
          kind: z.enum(['translated', 'cannot-run', 'java-rejects', 'differs']),
          construct: z.string(),
          message: z.string(),
        }),
      )
      .describe(
        'How the Java matcher reads in JavaScript (docs/resolver.md, "Java and JavaScript regular expressions").',
      ),
    error: z.string().nullable().describe('Why the parser could not run.'),
  }),
);

export const LookupHop = named(
  'LookupHop',
  z.strictObject({
    method: z.enum(['GET', 'POST']),
    url: z.string(),
    status: z.int(),
    next: z.enum(['redirect', 'digest']).nullable().describe('Why another request followed.'),
    location: z.string().nullable(),
    connectMs: z.number().nullable().describe('Connection set-up; null when a connection was reused.'),
    tlsProtocol: z
      .string()
      .nullable()
      .meta({ examples: ['TLSv1.3'] }),
    headMs: z.number().describe("From the start of the lookup to this response's head."),
  }),
);

export const LookupTiming = named(
  'LookupTiming',
  z.strictObject({
    connectMs: z.number().nullable().describe('Set-up of the first connection, ms.'),
    firstByteMs: z.number().nullable().describe('From the start to the head of the last response, ms.'),
    totalMs: z.number().describe('From the start to the end of the last body, ms.'),
    timeoutMs: z.int().min(100).max(1500).describe("The provider's timeout (RESOLVER-TIMEOUT-DEFAULT: 700)."),
    exceeded: z
      .boolean()
      .describe(
        'Set-up or answer took longer than the timeout; the search log warns and the answer is still evaluated (RESOLVER-TIMEOUT-WARNING).',
      ),
  }),
);

export const ResolutionAttempt = named(
  'ResolutionAttempt',
  z
    .strictObject({
      provider: z.string().describe('The provider id.'),
      state: z.enum(['resolved', 'no-result', 'failed']),
      number: z.string().describe("The number as sent, in the provider's format."),
      url: z
        .string()
        .nullable()
        .describe('The request URL with secrets masked; null when none was built or the cache answered.'),
      status: z.int().nullable().describe('HTTP status of the last answer.'),
      reason: z.string().nullable().describe('Why it failed, or the no-result message.'),
      hint: z.string().nullable().describe('The hint for a 4xx answer (RESOLVER-4XX-HINT).'),
      name: ResolvedName.nullable(),
      variables: z
        .array(z.string())
        .describe('The index variables `{0}`, `{1}`, … in parser order (RESOLVER-EVAL-PARSER-ORDER).'),
      uiValues: UiValues,
      fromCache: z.boolean(),
      hits: z
        .array(ParserHit)
        .describe('What each parser made of the body; empty when no body was evaluated.'),
      hops: z
        .array(LookupHop)
        .describe(
          'Every request of the lookup (redirects and digest retries included); empty when none was sent.',
        ),
      timing: LookupTiming.nullable().describe(
        "The lookup's times against the provider's timeout; null when no request was sent.",
      ),
    })
    .describe('What one provider gave.'),
);

export const SearchLogEntry = named(
  'SearchLogEntry',
  z.strictObject({
    seq: z.int().min(1),
    at: z.int().describe('Virtual-clock time in epoch ms.'),
    resolution: z.int().min(1),
    provider: z
      .string()
      .nullable()
      .describe('null for lines of the resolution as a whole (start, fallback, result).'),
    level: z.enum(['info', 'warning', 'error']),
    step: z
      .enum([
        'start',
        'number',
        'cache',
        'url',
        'encoded-uri',
        'request',
        'connect',
        'redirect',
        'auth',
        'response',
        'timeout',
        'body',
        'matcher',
        'parser',
        'result',
        'hint',
        'fallback',
        'address-book',
        'error',
      ])
      .describe('The step of the resolution; `redirect` and `encoded-uri` are expert lines.'),
    message: z
      .string()
      .describe('Wording not part of any contract (RESOLVER-UNSPEC-LOG-TEXTS); secrets read `***`.'),
    expert: z.boolean(),
    data: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable())
      .describe('Structured details of the step (status, bytes, charset, parser index, …).')
      .optional(),
  }),
);

export const AddressBookEntry = named(
  'AddressBookEntry',
  z.strictObject({
    number: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    company: z.string(),
    source: z.string().describe('The provider that saved it, or `manual`.'),
  }),
);

export const AddressBookEntryInput = named(
  'AddressBookEntryInput',
  z.strictObject({
    number: z.string().max(64),
    firstName: z.string().max(256).optional(),
    lastName: z.string().max(256).optional(),
    company: z.string().max(256).optional(),
    source: z.string().max(64).optional(),
  }),
);

export const Resolution = named(
  'Resolution',
  z.strictObject({
    resolution: z.int().min(1).describe('Number of this resolution; search-log lines carry it.'),
    trigger: ResolutionTrigger,
    input: z.string().describe('The number as it came in.'),
    canonical: z.string().nullable().describe('The `+xx` form; null when not resolvable.'),
    state: ResolutionState,
    source: z.string().nullable().describe('`provider:<id>`, `cache:<id>`, `address-book`, or null.'),
    name: ResolvedName.nullable(),
    uiValues: UiValues,
    attempts: z
      .array(ResolutionAttempt)
      .describe('One per provider asked, in order (a settings test asks one).'),
    log: z
      .array(SearchLogEntry)
      .describe('The search-log lines of this resolution, expert lines included; `seq` counts within it.'),
    toSave: z
      .array(AddressBookEntry)
      .describe('Entries this resolution saved to the address book (RESOLVER-SAVE-TO-ADDRESS-BOOK).'),
  }),
);

export const CallerIdResult = named(
  'CallerIdResult',
  z.strictObject({
    number: z.string().describe('The canonical `+xx` number, or the input when not resolvable.'),
    state: ResolutionState,
    name: ResolvedName.nullable(),
    source: z.string().nullable(),
    uiValues: UiValues,
    resolution: z.int().min(1),
    at: z.int().describe('Virtual-clock time in epoch ms.'),
  }),
);
