import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  acceptLanguageProblems,
  acceptProblems,
  headerValues,
  listElements,
  mediaType,
  singleHeader,
  userAgentProblems,
} from '../../../steps/resolver/support/browser-headers.ts';

const CHROME_107 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/107.0.0.0 Safari/537.36';
const FIREFOX_107 = 'Mozilla/5.0 (X11; Linux x86_64; rv:107.0) Gecko/20100101 Firefox/107.0';

test('RESOLVER-GET-USER-AGENT: desktop Chrome and Firefox 107 pass, whatever the exact string', () => {
  assert.deepEqual(userAgentProblems(CHROME_107, 107), []);
  assert.deepEqual(userAgentProblems(FIREFOX_107, 107), []);
  assert.deepEqual(
    userAgentProblems(
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/107.0.5304.87 Safari/537.36',
      107,
    ),
    [],
  );
});

test('RESOLVER-GET-USER-AGENT: another version, a mobile device or a non-browser client is named', () => {
  assert.match(
    userAgentProblems(CHROME_107.replace('107.0.0.0', '108.0.0.0'), 107).join(),
    /Chrome\/108, not 107/,
  );
  assert.match(
    userAgentProblems(
      'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/107.0.0.0 Mobile Safari/537.36',
      107,
    ).join(),
    /mobile|desktop/,
  );
  assert.ok(userAgentProblems('Java/11.0.2', 107).length >= 2);
  assert.ok(userAgentProblems('undici', 107).length > 0);
});

test('RESOLVER-GET-ACCEPT: HTML and an XML type must both be accepted with q > 0', () => {
  assert.deepEqual(acceptProblems('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), []);
  assert.deepEqual(acceptProblems('text/xml, text/html'), []);
  assert.deepEqual(acceptProblems('text/html, application/xml;q=0'), [
    'it accepts no XML type (application/xml, text/xml or a +xml type)',
  ]);
  assert.deepEqual(acceptProblems('*/*'), [
    'it does not accept text/html',
    'it accepts no XML type (application/xml, text/xml or a +xml type)',
  ]);
});

test('RESOLVER-GET-ACCEPT-LANGUAGE: German first and preferred, English next', () => {
  assert.deepEqual(acceptLanguageProblems('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7'), []);
  assert.deepEqual(acceptLanguageProblems('de, en'), []);
  assert.match(acceptLanguageProblems('en-US,en;q=0.9,de;q=0.8').join(), /first language is en/);
  assert.match(acceptLanguageProblems('de-DE,fr;q=0.9,en;q=0.8').join(), /after German is fr/);
  assert.match(acceptLanguageProblems('de;q=0.5,en;q=0.9').join(), /weighted above German/);
});

test('header helpers read names without regard to case and split codings and media types', () => {
  const record = {
    headers: [
      ['Accept-Encoding', 'gzip, deflate, br'],
      ['X-A', '1'],
      ['x-a', '2'],
    ] as [string, string][],
  };
  assert.deepEqual(headerValues(record, 'accept-encoding'), ['gzip, deflate, br']);
  assert.deepEqual(listElements('gzip, deflate, br'), ['gzip', 'deflate', 'br']);
  assert.deepEqual(listElements(' GZip,deflate ,\tBR '), ['gzip', 'deflate', 'br']);
  assert.notDeepEqual(listElements('gzip, deflate;q=0.5, br'), listElements('gzip, deflate, br'));
  assert.notDeepEqual(listElements('gzip, deflate'), listElements('gzip, deflate, br'));
  assert.notDeepEqual(listElements('br, gzip, deflate'), listElements('gzip, deflate, br'));
  assert.deepEqual(singleHeader(record, 'x-a'), { problem: '2 x-a headers: ["1","2"]' });
  assert.deepEqual(singleHeader(record, 'pragma'), { problem: 'no pragma header' });
  assert.equal(mediaType('Application/JSON; charset=UTF-8'), 'application/json');
});
