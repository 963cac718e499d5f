import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  displayCommand,
  fillPlaceholders,
  type PlaceholderValues,
  redactSecrets,
  splitCommandLine,
  unknownPlaceholders,
} from '../../src/certify/command-line.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';

const AUTH = xmlRpcAuthValue('123', 'Pass123');
const VALUES: PlaceholderValues = {
  host: '127.0.0.1',
  port: '40123',
  web: 'http://127.0.0.1:40200',
  xmlrpc: 'http://127.0.0.1:40200/xml-rpc',
  login: '123',
  auth: AUTH,
  timeout: '20',
};

test('the command line splits like a shell without expansions', () => {
  assert.deepEqual(splitCommandLine('check -H {host}  -p {port}'), ['check', '-H', '{host}', '-p', '{port}']);
  assert.deepEqual(splitCommandLine(`a 'b c' "d \\"e\\" f" g\\ h ''`), ['a', 'b c', 'd "e" f', 'g h', '']);
  assert.deepEqual(splitCommandLine('x $HOME *.py a|b'), ['x', '$HOME', '*.py', 'a|b']);
  assert.deepEqual(splitCommandLine('pre"mid"post'), ['premidpost']);
  assert.throws(() => splitCommandLine("a 'b"), /unterminated single quote/);
  assert.throws(() => splitCommandLine('a "b'), /unterminated double quote/);
  assert.throws(() => splitCommandLine('a \\'), /trailing backslash/);
});

test('placeholders are filled, unknown ones are reported', () => {
  assert.deepEqual(fillPlaceholders(['-u', '{xmlrpc}?de.vendor.pbx.auth={auth}', '{other}'], VALUES), [
    '-u',
    `http://127.0.0.1:40200/xml-rpc?de.vendor.pbx.auth=${AUTH}`,
    '{other}',
  ]);
  assert.deepEqual(unknownPlaceholders(['{hots}', '{port}', 'x{Host}']), ['{hots}']);
});

test('the shown command keeps the auth value as its placeholder name', () => {
  const shown = displayCommand(['check', '-a', '{auth}', '--url', '{xmlrpc}?x={auth}', 'a b'], VALUES);
  assert.equal(shown, "check -a {auth} --url 'http://127.0.0.1:40200/xml-rpc?x={auth}' 'a b'");
  assert.ok(!shown.includes(AUTH.slice(4, 20)));
});

test('secrets are removed from output, whole, URL-encoded or as the bare hex part', () => {
  const hex = AUTH.slice(AUTH.indexOf(':') + 1);
  const text = `a ${AUTH} b ${encodeURIComponent(AUTH)} c ${hex} d`;
  const redacted = redactSecrets(text, VALUES);
  assert.equal(redacted, 'a {auth} b {auth} c {auth} d');
});
