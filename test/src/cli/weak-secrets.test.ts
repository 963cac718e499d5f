import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { FLEET_SECRET_ENV } from '../../../simulators/fleet/index.ts';
import { run } from '../../../src/cli/run.ts';
import { PROJECT_ROOT } from '../../../src/core/project-paths.ts';
import { MIN_SECRET_LENGTH, weakSecretReason } from '../../../src/core/secret-strength.ts';
import { captureIo } from './capture-io.ts';

/** The value deploy/secret.yaml ships, read from the manifest itself so the test follows it. */
function deployPlaceholder(): string {
  const manifest = parse(readFileSync(join(PROJECT_ROOT, 'deploy', 'secret.yaml'), 'utf8')) as {
    stringData: { secret: string };
  };
  return manifest.stringData.secret;
}

const GOOD = 'b7e1c2d94f6a08e35b2c71d0a9f48e6c3d5b2a1f0e9c8d7b6a5f4e3d2c1b0a99';

async function simulateWith(args: string[], env: NodeJS.ProcessEnv) {
  const io = captureIo(process.cwd(), { env, signal: AbortSignal.abort() });
  const code = await run(['simulate', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

test('the placeholder of deploy/secret.yaml, as the fleet secret, is refused for the controller and a shard: exit 2, one line saying how to make one, the value never echoed', async () => {
  const placeholder = deployPlaceholder();
  for (const args of [
    ['--fleet-only', '--pbx-count', '2'],
    ['--shard', '1/2', '--pbx-count', '2', '--controller', 'tcp://127.0.0.1:9'],
  ]) {
    const { code, out, err } = await simulateWith(args, { [FLEET_SECRET_ENV]: placeholder });
    assert.equal(code, 2, err);
    assert.equal(out, '', 'nothing started');
    assert.match(
      err,
      /^pbx-conformance: PBX_CONFORMANCE_FLEET_SECRET is a placeholder, not a secret.*openssl rand -hex 32.*\n$/,
    );
    assert.equal(err.split('\n').length, 2, 'one line');
    assert.ok(!err.includes(placeholder), 'the secret is not echoed');
  }
});

test('a fleet secret shorter than 32 characters is refused with its length and how to make one', async () => {
  const short = 'k3Jd9sQm2Lp8Xw4Rt6Yv1Zb5Nc7Hf0G'; // 31 random-looking characters
  assert.equal(short.length, MIN_SECRET_LENGTH - 1);
  const { code, err } = await simulateWith(['--fleet-only', '--pbx-count', '2'], {
    [FLEET_SECRET_ENV]: short,
  });
  assert.equal(code, 2);
  assert.match(
    err,
    /has 31 characters, fewer than the 32 a secret needs; make one with `openssl rand -hex 32`/,
  );
  assert.ok(!err.includes(short));
  const missing = await simulateWith(['--fleet-only', '--pbx-count', '2'], {});
  assert.equal(missing.code, 2);
  assert.match(missing.err, /set PBX_CONFORMANCE_FLEET_SECRET .*openssl rand -hex 32/);
});

test('a weak --control-token is refused before anything listens', async () => {
  for (const token of ['changeme', 'replace-me-with-a-random-secret', 'short-token-of-the-tests']) {
    const { code, out, err } = await simulateWith(['--control-token', token, '--port', '0'], {});
    assert.equal(code, 2, err);
    assert.equal(out, '');
    assert.match(
      err,
      /^pbx-conformance: --control-token (is a placeholder|has \d+ characters).*openssl rand -hex 32/,
    );
    assert.ok(!err.includes(token));
  }
});

test('weakSecretReason: placeholders in any case and spelling, repeated characters and short secrets; a random one passes', () => {
  for (const weak of [
    deployPlaceholder(),
    'REPLACE_ME_WITH_A_RANDOM_SECRET',
    'replace-me-please-with-something-long-enough',
    'change-me',
    '<your fleet secret goes in here, 32+ characters>',
    '{{ .Values.fleetSecretFromTheVaultOfTheCluster }}',
    'x'.repeat(64),
    'a-secret-too-short',
    '',
  ])
    assert.ok(weakSecretReason('the secret', weak), `refused: ${weak}`);
  assert.equal(weakSecretReason('the secret', GOOD), undefined);
  assert.equal(weakSecretReason('the secret', 'fleet-secret-for-the-shard-tests-only'), undefined);
});
