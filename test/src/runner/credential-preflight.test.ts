import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start } from '../../../simulators/pbx/index.ts';
import type { TargetFile } from '../../../src/core/target-file.ts';
import { checkCredentials, rejectedCredentialLines } from '../../../src/runner/credential-preflight.ts';

function pbxTarget(webUrl: string, password: string, extra: Record<string, unknown> = {}): TargetFile {
  return {
    name: 'lab',
    pbx: {
      webUrl,
      monitoring: { host: '127.0.0.1', port: 1 },
      xmlrpc: {
        path: '/xml-rpc',
        instanceName: 'Monitoring',
        authParam: 'de.vendor.pbx.auth',
        login: '123',
        password,
      },
      listedClientAddress: '127.0.0.1',
    },
    ...extra,
  };
}

test('the simulator accepts its XML-RPC login and rejects a wrong password and an unknown maintenance token', async () => {
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    const good = await checkCredentials(pbxTarget(pbx.urls.web, 'Pass123'));
    assert.deepEqual(
      good.map((c) => [c.credential, c.outcome]),
      [['XML-RPC login "123"', 'accepted']],
    );
    const bad = await checkCredentials(
      pbxTarget(pbx.urls.web, 'wrong-Pass', { maintenance: { token: 'not-a-token-secret' } }),
    );
    const lines = rejectedCredentialLines(bad);
    assert.equal(lines.length, 2, JSON.stringify(bad));
    assert.match(
      lines[0] ?? '',
      /^credential rejected: XML-RPC login "123" \(answered as to a wrong password: /,
    );
    assert.equal(lines[1], 'credential rejected: maintenance token (HTTP 401)');
    for (const line of lines) {
      assert.equal(line.includes('wrong-Pass'), false);
      assert.equal(line.includes('not-a-token'), false);
    }
  } finally {
    await pbx.close();
  }
});

test('every fleet account and MCP token is tried; 401 rejects, other answers are left to the scenarios', async () => {
  const pbx = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    const seen: string[] = [];
    const checks = await checkCredentials(
      pbxTarget(pbx.urls.web, 'Pass123', {
        fleet: {
          apiUrl: 'http://fleet.invalid',
          mcpUrl: 'http://fleet.invalid/mcp',
          accounts: {
            partner: { email: 'anna@example.com', password: 'good' },
            viewer: { email: 'vera@example.com', password: 'stale' },
            idpOnly: { email: 'sso@example.com' },
          },
          mcpTokens: { readWrite: 'tok-good', readOnly: 'tok-old' },
        },
      }),
      async (url, headers) => {
        seen.push(url);
        const auth = headers['authorization'] ?? '';
        const secret = auth.startsWith('Basic ')
          ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[1]
          : auth.slice(7);
        if (secret === 'stale' || secret === 'tok-old') return 401;
        return secret === 'tok-good' ? 500 : 200;
      },
    );
    assert.deepEqual(rejectedCredentialLines(checks), [
      'credential rejected: fleet account viewer (HTTP 401)',
      'credential rejected: MCP token readOnly (HTTP 401)',
    ]);
    assert.equal(checks.find((c) => c.credential === 'MCP token readWrite')?.outcome, 'unknown');
    assert.deepEqual(seen.filter((u) => u.endsWith('/api/v1/sites')).length, 2);
  } finally {
    await pbx.close();
  }
});
