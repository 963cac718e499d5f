import assert from 'node:assert/strict';
import { test } from 'node:test';
import { looksGerman } from '../../../../steps/fleet/support/german-text.ts';

test('FLEET-ERROR-OBJECT: German error texts read as German', () => {
  for (const text of [
    'Der Kommentar darf höchstens 1000 Zeichen lang sein.',
    'Mit der Rolle Betrachter können Meldungen nicht bestätigt werden.',
    'Zugriff verweigert.',
    'Ungültige Anfrage',
    'Anfrage abgelehnt: Kommentar zu lang',
  ]) {
    assert.ok(looksGerman(text), text);
  }
});

test('FLEET-ERROR-OBJECT: English, empty or code-only texts do not read as German', () => {
  for (const text of [
    '',
    'forbidden',
    'invalid_request',
    'Comment must be at most 1000 characters.',
    'Access denied in this role',
  ]) {
    assert.ok(!looksGerman(text), text);
  }
});
