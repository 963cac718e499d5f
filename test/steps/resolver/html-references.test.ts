import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeHTMLStrict } from 'entities';
import * as fc from 'fast-check';
import {
  encodeWithReferences,
  referenceEncodableText,
} from '../../../steps/resolver/support/html-references.ts';

test('RESOLVER-EVAL-HTML-DECODE: generated encodings hold no raw &, <, > or " and decode back to the text', () => {
  fc.assert(
    fc.property(
      referenceEncodableText().chain((text) => fc.tuple(fc.constant(text), encodeWithReferences(text))),
      ([text, encoded]) => {
        assert.doesNotMatch(encoded.replace(/&[#A-Za-z0-9]+;/g, ''), /[&<>"]/);
        assert.equal(decodeHTMLStrict(encoded), text);
        assert.equal(text, text.trim());
      },
    ),
  );
});
