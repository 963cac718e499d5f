import assert from 'node:assert/strict';
import { test } from 'node:test';
import { start as startFleet } from '../../simulators/fleet-controller/index.ts';
import { MAINTENANCE_BASE_PATH, start as startPbx } from '../../simulators/pbx/index.ts';
import { DEFAULT_XMLRPC_CREDENTIALS } from '../../src/core/default-credentials.ts';
import { describeFuzzTarget } from '../../src/fuzz/fuzz-target.ts';

const FAST_SCRYPT = { N: 1024, r: 8, p: 1 };
const TOKEN = 'fuzz-target-control-token-of-the-test';

/**
 * A target description whose control planes require a bearer token: the fuzzer mints a maintenance
 * token through the PBX's (`createToken`) and opens an item through the fleet's (`injectEvent`),
 * both with the derived control clients, and reads the commands and the item back from the faces.
 */
test('the fuzzer sets a target up through the derived control clients, with the control token', async (t) => {
  const pbx = await startPbx({ monitoringPort: 0, clock: { mode: 'frozen' }, controlToken: TOKEN });
  t.after(() => pbx.close());
  const fleet = await startFleet({ scryptCost: FAST_SCRYPT, controlToken: TOKEN });
  t.after(() => fleet.close());
  const describe = (controlToken: string | undefined) =>
    describeFuzzTarget(
      {
        pbx: {
          webUrl: pbx.urls.web,
          controlUrl: pbx.urls.control,
          ...(controlToken === undefined ? {} : { controlToken }),
          xmlrpc: { ...DEFAULT_XMLRPC_CREDENTIALS },
        },
        maintenance: { basePath: MAINTENANCE_BASE_PATH },
        fleet: {
          apiUrl: fleet.urls.api,
          controlUrl: fleet.urls.control,
          ...(controlToken === undefined ? {} : { controlToken }),
          accounts: { partner: { email: 'anna.admin@nordlicht.example', password: 'Nordlicht-Demo-1' } },
          sites: { own: 'site-hamburg' },
        },
      },
      null,
    );

  const { info, maintenanceCommands } = await describe(TOKEN);
  assert.match(info.maintenance?.token ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.ok(maintenanceCommands.length > 0, 'the maintenance API listed its commands to the minted token');
  assert.equal(info.fleet?.item?.siteId, 'site-hamburg');
  const [item] = await fleet.control.items({ siteId: 'site-hamburg' });
  assert.equal(info.fleet?.item?.id, String(item?.id));
  assert.equal(item?.module, 'Fuzz');

  // Without the token both control planes refuse (401): no maintenance token, no item, and the
  // checks that need them are then not verifiable rather than failed.
  const refused = await describe(undefined);
  assert.equal(refused.info.maintenance?.token, undefined);
  assert.deepEqual(refused.maintenanceCommands, []);
  assert.equal(refused.info.fleet?.item, undefined);
});
