/**
 * Live properties of the request the PBX builds: number formats (RESOLVER-FMT-PLUS,
 * RESOLVER-FMT-00, RESOLVER-FMT-0, RESOLVER-FMT-COUNTRY-CODE), `{tel}` and field placeholders
 * (RESOLVER-PH-TEL, RESOLVER-PH-FIELD, RESOLVER-PH-PREFIX-SUFFIX), URL encoding and the literal `+`
 * (RESOLVER-URL-ENCODING, RESOLVER-URL-PLUS), and the POST body (RESOLVER-POST-BODY). Expected
 * values come from steps/resolver/support, written from the spec, never from the simulator.
 */
import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { PbxWorld } from '../support/world.ts';
import { acceptedRenderings, inputNumber, readBack } from './support/expected-number.ts';
import { resolveOnce } from './support/resolution-run.ts';
import {
  fieldId,
  inputForm,
  literalFieldText,
  nationalNumber,
  numberFormat,
  unreservedText,
  urlHostileText,
} from './support/resolver-arbitraries.ts';
import { resolverProperty } from './support/resolver-property.ts';
import { decodesTo, nonUrlCharacters, placeholderTexts } from './support/url-values.ts';

function only<T>(records: T[]): T {
  assert.equal(records.length, 1, `expected one request, got ${records.length}`);
  return records[0] as T;
}

Then(
  'for generated national numbers, country codes and formats a POST provider sends only the member "query" with the number \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'POST body holds exactly the number',
      runs,
      fc.record({ number: nationalNumber(), format: numberFormat() }),
      async ({ number, format }, control, scenario) => {
        const { records } = await resolveOnce(control, scenario, {
          countryCode: number.countryCode,
          number: inputNumber(number, 'national'),
          provider: (draft) => {
            draft.config.method = 'POST';
            draft.config.numberFormat = format;
          },
        });
        const record = only(records);
        assert.equal(record.method, 'POST');
        const body = JSON.parse(record.body.toString('utf8')) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body), ['query'], `body ${record.body.toString('utf8')}`);
        assert.ok(
          acceptedRenderings(number, format).includes(body['query'] as string),
          `query ${JSON.stringify(body['query'])} is not ${acceptedRenderings(number, format).join(' or ')}`,
        );
      },
    );
  },
);

Then(
  'for generated national numbers, country codes, input forms and formats \\{tel} reaches the endpoint in the chosen format \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      '{tel} in the chosen format',
      runs,
      fc.record({ number: nationalNumber(), format: numberFormat(), form: inputForm() }),
      async ({ number, format, form }, control, scenario) => {
        const { records } = await resolveOnce(control, scenario, {
          countryCode: number.countryCode,
          number: inputNumber(number, form),
          provider: (draft) => {
            draft.url = '/lookup?tel={tel}';
            draft.config.numberFormat = format;
          },
        });
        const query = only(records).query ?? '';
        assert.ok(query.startsWith('tel='), `raw query ${query}`);
        const raw = query.slice('tel='.length);
        // Raw, not decoded: the + of a canonical number must arrive as a literal + (RESOLVER-URL-PLUS).
        assert.ok(
          acceptedRenderings(number, format).includes(raw),
          `{tel} arrived as ${raw}, not ${acceptedRenderings(number, format).join(' or ')}`,
        );
        assert.equal(
          readBack(raw, number.countryCode),
          number.significant,
          'the rendering does not read back',
        );
      },
    );
  },
);

Then(
  'for generated field ids and values the placeholders are replaced literally, never as patterns or placeholders again \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'literal field replacement',
      runs,
      fc.record({ id: fieldId(), value: literalFieldText() }),
      async ({ id, value }, control, scenario) => {
        const template = `/f/{${id}}/lookup?tel={tel}&v={${id}}`;
        const { records } = await resolveOnce(control, scenario, {
          countryCode: '49',
          number: '030 1234567',
          provider: (draft) => {
            draft.url = template;
            draft.config.fields = { [id]: { value } };
          },
        });
        const { target } = only(records);
        assert.deepEqual(nonUrlCharacters(target), [], `request target ${target}`);
        const texts = placeholderTexts(template, target);
        assert.ok(texts, `request target ${target} does not have the shape of ${template}`);
        for (const { name, raw } of texts) {
          if (name === 'tel') assert.equal(raw, '+49301234567');
          else
            assert.ok(
              decodesTo(raw, value),
              `{${name}} arrived as ${raw}, which does not decode to ${value}`,
            );
        }
      },
    );
  },
);

Then(
  'for generated prefixes, values and suffixes a field placeholder becomes prefix, value and suffix \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'prefix, value, suffix',
      runs,
      fc.record({ prefix: unreservedText(0, 6), value: unreservedText(1, 10), suffix: unreservedText(0, 6) }),
      async ({ prefix, value, suffix }, control, scenario) => {
        const { records } = await resolveOnce(control, scenario, {
          countryCode: '49',
          provider: (draft) => {
            draft.url = '/lookup?tel={tel}&k={apikey}';
            draft.config.fields = { apikey: { value, prefix, suffix } };
          },
        });
        const texts = placeholderTexts('/lookup?tel={tel}&k={apikey}', only(records).target);
        const raw = texts?.find((t) => t.name === 'apikey')?.raw;
        assert.ok(raw !== undefined, `request target ${only(records).target}`);
        assert.ok(decodesTo(raw, `${prefix}${value}${suffix}`), `{apikey} arrived as ${raw}`);
      },
    );
  },
);

Then(
  'for generated values with characters not allowed in a URL the request target holds only URL characters and decodes to the values \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return resolverProperty(
      this,
      'URL encoding of values',
      runs,
      urlHostileText(),
      async (value, control, scenario) => {
        const template = '/p/{city}/lookup?tel={tel}&q={city}';
        const { records } = await resolveOnce(control, scenario, {
          countryCode: '49',
          provider: (draft) => {
            draft.url = template;
            draft.config.fields = { city: { value } };
          },
        });
        const { target } = only(records);
        assert.deepEqual(nonUrlCharacters(target), [], `request target ${target}`);
        const texts = placeholderTexts(template, target);
        assert.ok(texts, `request target ${target} does not have the shape of ${template}`);
        for (const { name, raw } of texts) {
          if (name === 'tel') assert.equal(raw, '+49301234567', 'the + of the number was encoded');
          else
            assert.ok(
              decodesTo(raw, value),
              `{city} arrived as ${raw}, which does not decode to ${JSON.stringify(value)}`,
            );
        }
      },
    );
  },
);
