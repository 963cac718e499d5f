/**
 * The operator's side of the module UI, through the PBX control plane: providers, country code,
 * expert mode, address book. Providers are drafted here and sent before the next resolution.
 */
import { type DataTable, Given } from '@cucumber/cucumber';
import type { PbxWorld } from '../support/world.ts';
import { everyNumberForm } from './support/expected-number.ts';
import { applySetting } from './support/provider-draft.ts';
import type { ResolverProvider } from './support/resolver-control.ts';
import { MAIN } from './support/resolver-scenario.ts';
import { resolverScenario } from './support/resolver-scenario-of.ts';
import { configureResolver } from './support/with-resolver.ts';

function settingsRows(table: DataTable): [string, string][] {
  return table.raw().map((row) => {
    if (row.length !== 2)
      throw new Error(`a provider setting row has a name and a value, got ${JSON.stringify(row)}`);
    return [row[0] as string, row[1] as string];
  });
}

Given('the PBX has a provider for {endpoint}', function (this: PbxWorld, endpoint: string) {
  resolverScenario(this).resetDraft(MAIN, endpoint);
});

Given(
  'the PBX has a provider {string} for {endpoint}',
  function (this: PbxWorld, id: string, endpoint: string) {
    resolverScenario(this).resetDraft(id, endpoint);
  },
);

Given(
  'the PBX has a provider {string} for {endpoint} with',
  function (this: PbxWorld, id: string, endpoint: string, table: DataTable) {
    const draft = resolverScenario(this).resetDraft(id, endpoint);
    for (const [key, value] of settingsRows(table)) applySetting(draft, key, value);
  },
);

Given(
  'the PBX has a provider for {endpoint} with',
  function (this: PbxWorld, endpoint: string, table: DataTable) {
    const draft = resolverScenario(this).resetDraft(MAIN, endpoint);
    for (const [key, value] of settingsRows(table)) applySetting(draft, key, value);
  },
);

Given(
  'the PBX has a provider for {endpoint} with the parsers',
  function (this: PbxWorld, endpoint: string, table: DataTable) {
    const draft = resolverScenario(this).resetDraft(MAIN, endpoint);
    draft.config.parsers = table.hashes().map((row) => {
      const matcher = row['matcher'];
      const formatter = row['formatter'];
      if (matcher === undefined || formatter === undefined)
        throw new Error('the parser table needs the columns matcher and formatter');
      const parser: ResolverProvider['parsers'][number] = { matcher, formatter };
      if (row['option UI'] !== undefined) parser.optionUi = /^(yes|on|true)$/i.test(row['option UI']);
      return parser;
    });
  },
);

Given(
  "{provider}'s field mappings are {string}, {string} and {string}",
  function (this: PbxWorld, id: string, firstName: string, lastName: string, company: string) {
    resolverScenario(this).draft(id).config.fieldMappings = { firstName, lastName, company };
  },
);

Given("the PBX's country code is {string}", function (this: PbxWorld, countryCode: string) {
  return configureResolver(this, 'set the country code', (control) =>
    control.resolverSetSettings({ countryCode }),
  );
});

Given('the operator switches the resolver to expert mode', function (this: PbxWorld) {
  return configureResolver(this, 'switch expert mode on', (control) =>
    control.resolverSetSettings({ expertMode: true }),
  );
});

Given('the address-book fallback is switched {word}', function (this: PbxWorld, state: string) {
  if (state !== 'on' && state !== 'off') throw new Error(`on or off, got ${state}`);
  return configureResolver(this, 'switch the address-book fallback', (control) =>
    control.resolverSetSettings({ addressBookFallback: state === 'on' }),
  );
});

/**
 * Seeds the address book with one entry per form of the number (as written, `+xx`, `00xx` with and
 * without the national zero, `0`): the spec does not say under which form the PBX looks a number
 * up, so the fallback must not depend on it (RESOLVER-NO-RESULT-ADDRESS-BOOK).
 */
Given(
  'the PBX address book holds {string} for the number {string} in every number format',
  function (this: PbxWorld, lastName: string, number: string) {
    return configureResolver(this, 'fill the address book', async (control) => {
      const { countryCode } = await control.resolverSettings();
      const forms = everyNumberForm(number, countryCode);
      const book = (await control.resolverAddressBook()).filter((e) => !forms.includes(e.number));
      await control.resolverSetAddressBook([
        ...book,
        ...forms.map((form) => ({ number: form, firstName: '', lastName, company: '', source: 'manual' })),
      ]);
    });
  },
);

Given('the PBX address book is empty', function (this: PbxWorld) {
  return configureResolver(this, 'empty the address book', (control) => control.resolverSetAddressBook([]));
});
