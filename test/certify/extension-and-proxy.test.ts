import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { type TestContext, test } from 'node:test';
import type { PbxControl } from '../../simulators/pbx/control/control-api.ts';
import { AnswerProxy, fetchRaw } from '../../src/certify/answer-proxy.ts';
import {
  AGENT_EXTENSION,
  applyAgentExtension,
  extendAgentText,
} from '../../src/certify/extension-overlay.ts';

/** Keys of the PBX sections in the field's line shapes (field-line-shapes.md) and in the simulator today. */
const KNOWN_KEYS = [
  'appliance_type',
  'appliance_serial_number',
  'appliance_max_users',
  'appliance_max_connections',
  'system_manufacturer',
  'system_product_name',
  'pbx_version',
  'pbx_build_date',
  'owner',
  'license_max_users',
  'raid_status',
  'raid_diagnosis',
  'password_check',
  'attack_detection',
  'blacklisted_hosts',
  'whitelisted_hosts',
  'autoprovisioning',
  'accept_all_macs',
  'automated_firmware_updates',
  'sip_status_localhost',
  'known_phones',
  'online_phones',
  'ip_changed_phones',
  'engine_uptime',
  'debug_mode',
  'total_accounts',
  'admin_accounts',
  'active_accounts',
  'available_accounts',
  'ringing_accounts',
  'unavailable_accounts',
  'opened_connections',
  'closed_connections',
  'active_connections',
  'idle_connections',
  'java_vm_name',
  'java_vm_vendor',
  'java_vm_version',
  'java_version',
  'java_heap_memory',
  'java_non_heap_memory',
  'java_max_memory',
  'database_size',
  'cdr_size',
];

test('the extension is additive: no extra key starts with a known key or is the start of one', () => {
  const extraKeys = Object.values(AGENT_EXTENSION.extraLines).flatMap((lines) =>
    lines.map((l) => l.split(' ')[0] ?? ''),
  );
  for (const extra of extraKeys) {
    for (const known of KNOWN_KEYS) {
      assert.ok(!extra.startsWith(known) && !known.startsWith(extra), `${extra} vs ${known}`);
    }
  }
});

test('extra lines go to the end of their section, unknown sections after <<<pbx>>> and at the end', () => {
  const text =
    '<<<monitor_agent>>>\nVersion: 1\n<<<pbx>>>\npbx_version 1.2.3.4\n<<<pbx_backups>>>\n[HDD] 1 de.vendor.backup.successful\n<<<pbx_channels>>>\n2 max calls\n';
  assert.equal(
    extendAgentText(text),
    [
      '<<<monitor_agent>>>',
      'Version: 1',
      '<<<pbx>>>',
      'pbx_version 1.2.3.4',
      'zz_extension_flag enabled',
      'zz_extension_counter 42',
      '<<<pbx_backups_offsite>>>',
      'offsite_targets 0',
      'offsite_last_sync -1',
      '<<<pbx_backups>>>',
      '[HDD] 1 de.vendor.backup.successful',
      'zz_backup_schedule daily 02:00',
      'zz_backup_retention_days 30',
      '<<<pbx_channels>>>',
      '2 max calls',
      '<<<pbx_future_feature>>>',
      'future_feature_enabled true',
      'future_feature_count 3',
      '',
    ].join('\n'),
  );
});

test('a simulator that refuses the agentExtensions field gets the extension from the proxy', async () => {
  const patches: unknown[] = [];
  const refusing = {
    patchState: async (o: unknown) => {
      patches.push(o);
      throw new Error('unknown field agentExtensions');
    },
  };
  assert.equal(await applyAgentExtension(refusing as unknown as PbxControl), 'proxy');
  const accepting = {
    patchState: async (o: unknown) => {
      patches.push(o);
    },
  };
  assert.equal(await applyAgentExtension(accepting as unknown as PbxControl), 'state');
  assert.deepEqual(patches, [{ agentExtensions: AGENT_EXTENSION }, { agentExtensions: AGENT_EXTENSION }]);
});

async function upstream(
  t: TestContext,
  onConnection: (socket: import('node:net').Socket) => void,
): Promise<number> {
  const server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return address.port;
}

async function proxyTo(
  t: TestContext,
  port: number,
  options: { delayMs?: number; transform?: (s: string) => string } = {},
) {
  const proxy = new AnswerProxy({ upstream: { host: '127.0.0.1', port }, host: '127.0.0.1', ...options });
  const address = await proxy.start();
  t.after(() => proxy.close());
  return address;
}

test('the proxy relays the answer, held back or rewritten', async (t) => {
  const port = await upstream(t, (s) => s.end('<<<pbx>>>\npbx_version 1\n'));
  assert.equal(await fetchRaw(await proxyTo(t, port, { delayMs: 50 })), '<<<pbx>>>\npbx_version 1\n');
  assert.equal(
    await fetchRaw(await proxyTo(t, port, { transform: (s) => s.toUpperCase() })),
    '<<<PBX>>>\nPBX_VERSION 1\n',
  );
});

test('the proxy leaves ERROR lines alone and closes without a byte where the upstream did', async (t) => {
  const error = await upstream(t, (s) => s.end('ERROR: broken\n'));
  assert.equal(await fetchRaw(await proxyTo(t, error, { transform: () => 'rewritten' })), 'ERROR: broken\n');
  const silent = await upstream(t, (s) => s.destroy());
  assert.equal(await fetchRaw(await proxyTo(t, silent)), '');
});
