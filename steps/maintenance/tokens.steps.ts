/**
 * API token management (maintenance-and-fleet-api.md, part A, "Resources and their fields / API
 * token" and "States and transitions / API token") through the control plane, the module UI's
 * stand-in (MAINT-UNSPEC-TOKEN-UI); without one these steps report not verifiable.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Given, Then, When } from '@cucumber/cucumber';
import * as fc from 'fast-check';
import type { TokenInfo } from '../../simulators/pbx/index.ts';
import { assertLiveProperty } from '../support/bounded-property.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import type { PbxWorld } from '../support/world.ts';
import { assertMatchesSchema } from './support/api-answers.ts';
import { settle } from './support/completion-watch.ts';
import {
  createTokenAsAdmin,
  type MaintenanceControls,
  maintenanceTarget,
  noApiReason,
  pbxUsers,
  withMaintenanceControl,
} from './support/maintenance-access.ts';
import { maintenanceContext } from './support/maintenance-context.ts';
import { isSecretOf32Bytes, secretFormat } from './support/secret-format.ts';
import {
  createdByLabel,
  EXPIRY_MARGIN_MS,
  generatedExpiry,
  generatedLabel,
  lastCreated,
  listAsAdmin,
} from './support/token-checks.ts';

const requestedExpiryOf = (id: string) => memoryKey<number | null>(`requestedExpiry:${id}`);
const createdAtOf = (id: string) => memoryKey<{ from: number; to: number }>(`createdAt:${id}`);
const TOKENS_BEFORE_ATTEMPT = memoryKey<TokenInfo[]>('tokensBeforeAttempt');

/** Runs a token operation that may be refused, keeping the refusal for `Then the attempt is refused`. */
async function attempt(world: PbxWorld, operation: () => Promise<unknown>): Promise<void> {
  const context = maintenanceContext(world);
  context.refusal = undefined;
  try {
    await operation();
  } catch (error) {
    context.refusal = error ?? new Error('refused');
  }
}

async function create(world: PbxWorld, label: string, expiresInMs: number | null) {
  return withMaintenanceControl(world, 'create an API token', async (controls) => {
    const now = (await controls.control.now()).now;
    const expiresAt = expiresInMs === null ? null : now + expiresInMs;
    const created = await createTokenAsAdmin(controls, world, { label, expiresAt });
    world.memory.set(requestedExpiryOf(created.id), expiresAt);
    // Base64url padding is not stated (MAINT-UNSPEC-BASE64URL-PADDING): validate the rest of the
    // schema on the unpadded secret.
    assertMatchesSchema(
      { ...created, secret: secretFormat(created.secret).unpadded },
      'token-created',
      'the creation result',
    );
    // A running clock moves during the creation: its time lies between these two readings.
    world.memory.set(createdAtOf(created.id), { from: now, to: (await controls.control.now()).now });
  });
}

When('an administrator creates an API token labelled {string}', function (this: PbxWorld, label: string) {
  return create(this, label, null);
});

When(
  'an administrator creates an API token labelled {string} without an expiry',
  function (this: PbxWorld, label: string) {
    return create(this, label, null);
  },
);

When(
  'an administrator creates an API token labelled {string} that expires in {int} seconds',
  function (this: PbxWorld, label: string, seconds: number) {
    return create(this, label, seconds * 1000);
  },
);

Given(
  'an administrator creates API tokens labelled {names}',
  async function (this: PbxWorld, labels: string[]) {
    for (const label of labels) {
      const outcome = await create(this, label, null);
      if (outcome === 'skipped') return outcome;
    }
    return undefined;
  },
);

When(
  /^an administrator tries to create an API token (without a label|with an empty label)$/,
  function (this: PbxWorld, how: string) {
    return withMaintenanceControl(this, 'create an API token', async (controls) => {
      this.memory.set(TOKENS_BEFORE_ATTEMPT, await listAsAdmin(controls));
      await attempt(this, () =>
        createTokenAsAdmin(controls, this, how === 'with an empty label' ? { label: '' } : {}),
      );
    });
  },
);

Then('the attempt is refused', function (this: PbxWorld) {
  const { refusal } = maintenanceContext(this);
  assert.ok(refusal !== undefined, 'the attempt was not refused');
  const status = (refusal as { status?: unknown }).status;
  // A refusal is an answer of the control plane (4xx), not an unreachable one.
  assert.ok(
    typeof status === 'number' && status >= 400 && status < 500,
    `the attempt failed without a refusal: ${(refusal as Error).message ?? String(refusal)}`,
  );
  maintenanceContext(this).refusal = undefined;
});

Then('the token list is as before the attempt', function (this: PbxWorld) {
  return withMaintenanceControl(this, 'list the API tokens', async (controls) => {
    const before = this.memory.require(TOKENS_BEFORE_ATTEMPT);
    assert.deepEqual(
      (await listAsAdmin(controls)).map((token) => token.id),
      before.map((token) => token.id),
    );
  });
});

Then('the creation result shows the label {string}', function (this: PbxWorld, label: string) {
  assert.equal(lastCreated(this).label, label);
});

Then('the secret is Base64url text that decodes to exactly 32 bytes', function (this: PbxWorld) {
  const { secret } = lastCreated(this);
  const format = secretFormat(secret);
  assert.ok(format.base64url, `the secret (${secret.length} characters) is not Base64url text`);
  assert.equal(format.decodedBytes, 32, 'bytes the secret decodes to');
});

Then(
  'every token created with a generated label and expiry has a Base64url secret of 32 bytes that no other token has \\({int} runs)',
  function (this: PbxWorld, runs: number) {
    return withMaintenanceControl(this, 'create API tokens', async (controls) => {
      const seen = new Set<string>(maintenanceContext(this).created.map((token) => token.secret));
      await assertLiveProperty(
        this,
        'token secrets',
        fc.asyncProperty(generatedLabel, generatedExpiry, async (label, expiresInMs) => {
          const now = (await controls.control.now()).now;
          const created = await createTokenAsAdmin(controls, this, {
            label,
            expiresAt: expiresInMs === null ? null : now + expiresInMs,
          });
          assert.ok(isSecretOf32Bytes(created.secret), `secret of ${created.secret.length} characters`);
          assert.ok(!seen.has(created.secret), 'two tokens got the same secret');
          seen.add(created.secret);
        }),
        runs,
      );
    });
  },
);

Then('the creation result holds the secret in clear', function (this: PbxWorld) {
  assert.ok(isSecretOf32Bytes(lastCreated(this).secret), 'the creation result holds no 32-byte secret');
});

Then(
  "the secret appears neither in the token list nor in the module log, the PBX state, the completion events or the API's answers",
  function (this: PbxWorld) {
    const { secret } = lastCreated(this);
    const unpadded = secretFormat(secret).unpadded;
    return withMaintenanceControl(this, 'read the token list and the module log', async (controls) => {
      await settle(controls);
      const views: Record<string, unknown> = {
        'token list': await listAsAdmin(controls),
        'token list (again)': await listAsAdmin(controls),
        'module log': await controls.control.moduleLog({ since: 0 }),
        'PBX state': await controls.control.getState(),
        'completion events': await controls.maintenance.completionEvents({ since: 0 }),
        "the API's answers": maintenanceContext(this).exchanges.map((exchange) => exchange.text),
      };
      for (const [view, value] of Object.entries(views)) {
        const text = JSON.stringify(value);
        assert.ok(!text.includes(unpadded), `the ${view} contains the secret`);
      }
    });
  },
);

Then(
  'the stored record of the token holds the SHA-256 hash of the secret and no clear secret',
  async function (this: PbxWorld) {
    const target = maintenanceTarget(this);
    if (!target) return this.notVerifiable(noApiReason(this));
    if (!target.storedTokenRecords)
      return this.notVerifiable(`target "${this.target.name}" does not show its stored token records`);
    const created = lastCreated(this);
    const bytes = Buffer.from(secretFormat(created.secret).unpadded, 'base64url');
    const hashes = [
      createHash('sha256').update(created.secret, 'utf8').digest('hex'),
      createHash('sha256').update(bytes).digest('hex'),
    ];
    const records = await target.storedTokenRecords();
    const record = records.find((candidate) => candidate.id === created.id);
    assert.ok(record, 'no stored record for the token');
    const text = JSON.stringify(record);
    const clearForms = [
      secretFormat(created.secret).unpadded,
      bytes.toString('hex'),
      bytes.toString('base64'),
    ];
    for (const clear of clearForms)
      assert.ok(!text.includes(clear), 'the stored record holds the secret in clear');
    assert.ok(
      hashes.some((hash) => text.toLowerCase().includes(hash)),
      `the stored record holds no SHA-256 hash of the secret: ${text}`,
    );
    return undefined;
  },
);

function entryOf(list: TokenInfo[], id: string): TokenInfo {
  const entry = list.find((token) => token.id === id);
  assert.ok(entry, `the token list does not show token ${id}`);
  return entry;
}

Then(
  'the token list shows the token with its creation time, its expiry and no last use yet',
  function (this: PbxWorld) {
    const created = lastCreated(this);
    return withMaintenanceControl(this, 'list the API tokens', async (controls) => {
      const entry = entryOf(await listAsAdmin(controls), created.id);
      const { from, to } = this.memory.require(createdAtOf(created.id));
      assert.ok(
        entry.createdAt >= from && entry.createdAt <= to,
        `created time ${entry.createdAt}: not the time of the creation (between ${from} and ${to})`,
      );
      const requested = this.memory.require(requestedExpiryOf(created.id));
      if (requested === null) assert.equal(entry.expiresAt, null, 'expiry of a token made without one');
      else
        assert.ok(
          typeof entry.expiresAt === 'number' && Math.abs(entry.expiresAt - requested) < EXPIRY_MARGIN_MS,
          `listed expiry ${entry.expiresAt} is not the one asked for (${requested}, to the date: MAINT-UNSPEC-TOKEN-EXPIRY)`,
        );
      assert.equal(entry.expiresAt, created.expiresAt, 'the listed expiry and the one the creation returned');
      assert.equal(entry.lastUsedAt, null, 'last use of a token never used');
      maintenanceContext(this).probes.set('lastUse', entry.createdAt);
    });
  },
);

Then("the token list shows the time of that call as the token's last use", function (this: PbxWorld) {
  const created = lastCreated(this);
  return withMaintenanceControl(this, 'list the API tokens', async (controls) => {
    const entry = entryOf(await listAsAdmin(controls), created.id);
    const now = (await controls.control.now()).now;
    const previous = maintenanceContext(this).probes.get('lastUse') as number;
    assert.ok(entry.lastUsedAt !== null, 'no last use after an accepted call');
    const startedAt = maintenanceContext(this).callStartedAt;
    // The call was the last use of the token; its time lies between the clock's reading right
    // before it and now. Without that reading (no control plane before the call) the clock
    // moved only through the control plane, so the call was at most a second ago.
    const earliest = startedAt ?? now - 1000;
    assert.ok(
      entry.lastUsedAt > previous && entry.lastUsedAt >= earliest && entry.lastUsedAt <= now,
      `last use ${entry.lastUsedAt}: not the time of the call (previous ${previous}, call between ${earliest} and ${now})`,
    );
    maintenanceContext(this).probes.set('lastUse', entry.lastUsedAt);
  });
});

async function nonAdminAttempt(
  world: PbxWorld,
  purpose: string,
  operation: (controls: MaintenanceControls, login: string) => Promise<unknown>,
) {
  return withMaintenanceControl(world, purpose, async (controls) => {
    const { nonAdmin } = await pbxUsers(controls.control);
    assert.ok(nonAdmin, 'the PBX has no user without the administration right');
    await attempt(world, () => operation(controls, nonAdmin));
  });
}

When(
  'a PBX user without the administration right tries to create an API token labelled {string}',
  function (this: PbxWorld, label: string) {
    return nonAdminAttempt(this, 'create an API token', ({ maintenance }, login) =>
      maintenance.createToken({ label, actor: login }),
    );
  },
);

When('that user tries to list the API tokens', function (this: PbxWorld) {
  return nonAdminAttempt(this, 'list the API tokens', ({ maintenance }, login) =>
    maintenance.listTokens({ actor: login }),
  );
});

When('that user tries to delete the token {string}', function (this: PbxWorld, label: string) {
  const { id } = createdByLabel(this, label);
  return nonAdminAttempt(this, 'delete an API token', ({ maintenance }, login) =>
    maintenance.deleteToken({ id, actor: login }),
  );
});

Then(
  'the token list shows the token {string} and no token {string}',
  function (this: PbxWorld, kept: string, absent: string) {
    return withMaintenanceControl(this, 'list the API tokens', async (controls) => {
      const labels = (await listAsAdmin(controls)).map((token) => token.label);
      assert.ok(labels.includes(kept), `"${kept}" is missing from ${JSON.stringify(labels)}`);
      assert.ok(!labels.includes(absent), `"${absent}" is in the list`);
    });
  },
);

async function deleteAsAdmin(world: PbxWorld, id: string) {
  return withMaintenanceControl(world, 'delete an API token', async (controls) => {
    const { admin } = await pbxUsers(controls.control);
    await controls.maintenance.deleteToken({ id, actor: admin });
  });
}

When('an administrator deletes the token', function (this: PbxWorld) {
  return deleteAsAdmin(this, lastCreated(this).id);
});

When('an administrator deletes the token {string}', function (this: PbxWorld, label: string) {
  return deleteAsAdmin(this, createdByLabel(this, label).id);
});

Then('the token list no longer shows the token', function (this: PbxWorld) {
  const { id } = lastCreated(this);
  return withMaintenanceControl(this, 'list the API tokens', async (controls) => {
    const ids = (await listAsAdmin(controls)).map((token) => token.id);
    assert.ok(!ids.includes(id), 'the deleted token is still listed');
  });
});
