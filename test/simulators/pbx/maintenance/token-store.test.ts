import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { SYSTEM_FUNCTIONS_PATH } from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import { TokenStore, TokenStoreError } from '../../../../simulators/pbx/maintenance/token-store.ts';
import { createFixture, type MaintenanceFixture } from './maintenance-fixture.ts';
import { validatorFor } from './schema-validator.ts';

async function withFixture(run: (f: MaintenanceFixture) => void | Promise<void>) {
  const f = createFixture();
  try {
    await run(f);
  } finally {
    f.close();
  }
}

function refused(run: () => unknown, code: string): void {
  assert.throws(run, (error: unknown) => error instanceof TokenStoreError && error.code === code);
}

const BASE64URL_32 = /^[A-Za-z0-9_-]{43}$/;

test('MAINT-TOKEN-LABEL-REQUIRED: a creation without a usable label is refused', async () => {
  await withFixture((f) => {
    for (const label of [undefined, null, '', '   ', '\t\n', 42, ['x'], 'x'.repeat(201)]) {
      refused(() => f.tokens.create({ label }, 'admin'), 'invalid-input');
    }
    refused(() => f.tokens.create(null as never, 'admin'), 'invalid-input');
    assert.equal(f.tokens.list('admin').length, 1, 'only the fixture token');
    assert.equal(f.tokens.create({ label: 'x'.repeat(200) }, 'admin').label.length, 200);
  });
});

test('MAINT-TOKEN-SECRET-FORMAT: a secret is 32 random bytes as 43 Base64url characters without padding', async () => {
  await withFixture((f) => {
    const created = f.tokens.create({ label: 'erp' }, 'admin');
    assert.match(created.secret, BASE64URL_32);
    const bytes = Buffer.from(created.secret, 'base64url');
    assert.equal(bytes.length, 32);
    assert.equal(bytes.toString('base64url'), created.secret);
    assert.ok(validatorFor('token-created')(created));
  });
});

test('MAINT-TOKEN-SECRET-FORMAT: secrets of different tokens differ and use the whole alphabet', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }), (count) => {
        const secrets = Array.from(
          { length: count },
          (_, i) => f.tokens.create({ label: `t${i}` }, 'admin').secret,
        );
        assert.equal(new Set(secrets).size, count);
        for (const secret of secrets) {
          assert.match(secret, BASE64URL_32);
          assert.equal(Buffer.from(secret, 'base64url').length, 32);
        }
      }),
      { numRuns: 30 },
    );
    const all = f.tokens
      .list('admin')
      .map(() => f.tokens.create({ label: 'more' }, 'admin').secret)
      .join('');
    assert.ok(/[-_]/.test(all), 'the URL-safe characters appear');
    assert.ok(!/[+/=]/.test(all));
  });
});

test('MAINT-TOKEN-HASH-ONLY, MAINT-TOKEN-SECRET-SHOWN-ONCE: only the SHA-256 hash is at rest; the list never shows the secret', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
        (label) => {
          const { id, secret } = f.tokens.create({ label }, 'admin');
          const record = f.tokens.storedRecords().find((r) => r.id === id)!;
          assert.equal(record.sha256, createHash('sha256').update(secret).digest('hex'));
          const atRest = inspect(f.tokens, {
            depth: Number.POSITIVE_INFINITY,
            maxArrayLength: null,
            maxStringLength: null,
          });
          assert.ok(!atRest.includes(secret));
          assert.ok(!JSON.stringify(f.tokens.storedRecords()).includes(secret));
          const listed = JSON.stringify(f.tokens.list('admin'));
          assert.ok(!listed.includes(secret));
          assert.ok(!listed.includes(record.sha256));
        },
      ),
      { numRuns: 40 },
    );
  });
});

test('MAINT-TOKEN-LIST-FIELDS: the list shows id, label, created, expiry and last use', async () => {
  await withFixture((f) => {
    f.clock.advance(1000);
    const created = f.tokens.create({ label: 'deploy', expiresAt: f.clock.now() + 86_400_000 }, 'admin');
    const entry = f.tokens.list('admin').find((t) => t.id === created.id)!;
    assert.deepEqual(entry, {
      id: created.id,
      label: 'deploy',
      createdAt: f.clock.now(),
      expiresAt: f.clock.now() + 86_400_000,
      lastUsedAt: null,
    });
    assert.ok(validatorFor('token-list')(f.tokens.list('admin')));
    f.clock.advance(500);
    assert.ok(f.tokens.verify(created.secret));
    assert.equal(f.tokens.list('admin').find((t) => t.id === created.id)?.lastUsedAt, f.clock.now());
    assert.deepEqual(
      f.tokens.list('admin').map((t) => t.label),
      ['fixture', 'deploy'],
      'creation order',
    );
  });
});

test('MAINT-TOKEN-VALID-ON-CREATE, MAINT-TOKEN-REVOKE-IMMEDIATE: valid at once, revoked at once, expired ones too', async () => {
  await withFixture((f) => {
    const created = f.tokens.create({ label: 'a' }, 'admin');
    assert.ok(f.tokens.verify(created.secret));
    f.tokens.delete(created.id, 'admin');
    assert.equal(f.tokens.verify(created.secret), null);
    assert.ok(!f.tokens.list('admin').some((t) => t.id === created.id));
    const expired = f.tokens.create({ label: 'b', expiresAt: f.clock.now() + 10 }, 'admin');
    f.clock.advance(10);
    f.tokens.delete(expired.id, 'admin');
    refused(() => f.tokens.delete(expired.id, 'admin'), 'not-found');
    refused(() => f.tokens.delete(42, 'admin'), 'not-found');
    assert.ok(f.tokens.verify(f.secret), 'others stay valid');
  });
});

test('MAINT-TOKEN-EXPIRY-BOUNDARY, MAINT-UNSPEC-TOKEN-EXPIRY: valid before expiresAt, invalid from it on', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 ** 11 }),
        fc.integer({ min: 0, max: 10 ** 11 }),
        (lifetime, elapsed) => {
          const clock = f.clock;
          const { secret } = f.tokens.create({ label: 'e', expiresAt: clock.now() + lifetime }, 'admin');
          clock.advance(elapsed);
          const status = f.api.handle({
            method: 'GET',
            target: SYSTEM_FUNCTIONS_PATH,
            headers: { authorization: `Bearer ${secret}` },
          }).status;
          assert.equal(status, elapsed < lifetime ? 200 : 401);
          f.tokens.clear();
        },
      ),
      { numRuns: 200 },
    );
  });
});

test('MAINT-TOKEN-NO-EXPIRY: a token without expiry stays valid however far the clock advances', async () => {
  await withFixture((f) => {
    const { secret } = f.tokens.create({ label: 'forever' }, 'admin');
    const start = f.clock.now();
    let total = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 * 365 * 86_400_000 }), (step) => {
        f.clock.advance(step);
        total += step;
        assert.ok(f.tokens.verify(secret));
      }),
      { numRuns: 100 },
    );
    assert.equal(f.clock.now(), start + total);
  });
});

test('expiresAt must be a future integer epoch in ms', async () => {
  await withFixture((f) => {
    for (const expiresAt of [
      f.clock.now(),
      f.clock.now() - 1,
      1.5,
      '2027-01-01',
      Number.NaN,
      Number.POSITIVE_INFINITY,
    ]) {
      refused(() => f.tokens.create({ label: 'x', expiresAt }, 'admin'), 'invalid-input');
    }
    assert.equal(f.tokens.create({ label: 'x', expiresAt: null }, 'admin').expiresAt, null);
  });
});

test('MAINT-TOKEN-ADMIN-RIGHT: a user without the administration right can neither create, list nor delete', async () => {
  await withFixture((f) => {
    const id = f.tokens.list('admin')[0]!.id;
    for (const actor of ['123', 'nobody', '', undefined, 7, 'ADMIN']) {
      refused(() => f.tokens.create({ label: 'x' }, actor), 'forbidden');
      refused(() => f.tokens.list(actor), 'forbidden');
      refused(() => f.tokens.delete(id, actor), 'forbidden');
    }
    refused(() => f.tokens.create({ label: '' }, '123'), 'forbidden');
    assert.equal(f.tokens.list('admin').length, 1);
  });
});

test('MAINT-AUTH-TOKEN-POWER: secrets never appear in the module log or on the console', async () => {
  const captured: string[] = [];
  const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
  const originals = methods.map((name) => console[name]);
  const originalStdout = process.stdout.write.bind(process.stdout);
  const originalStderr = process.stderr.write.bind(process.stderr);
  for (const name of methods) console[name] = (...args: unknown[]) => captured.push(inspect(args));
  // Tee, not swallow: the test runner reports through this process's stdout.
  process.stdout.write = ((chunk: unknown, ...rest: never[]) => {
    captured.push(String(chunk));
    return originalStdout(chunk as string, ...rest);
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown, ...rest: never[]) => {
    captured.push(String(chunk));
    return originalStderr(chunk as string, ...rest);
  }) as typeof process.stderr.write;
  const secrets: string[] = [];
  try {
    await withFixture(async (f) => {
      secrets.push(f.secret);
      const other = f.tokens.create({ label: 'other', expiresAt: f.clock.now() + 1000 }, 'admin');
      secrets.push(other.secret);
      const headers = { authorization: `Bearer ${other.secret}` };
      f.api.handle({ method: 'GET', target: SYSTEM_FUNCTIONS_PATH, headers });
      f.post('HangupAllCalls', { note: other.secret.slice(0, 10) }, headers);
      f.post('DeleteCallData', {}, headers);
      f.api.handle({
        method: 'GET',
        target: SYSTEM_FUNCTIONS_PATH,
        headers: { authorization: `Bearer ${other.secret}x` },
      });
      await f.settle();
      f.clock.advance(1000);
      f.api.handle({ method: 'GET', target: SYSTEM_FUNCTIONS_PATH, headers });
      f.tokens.delete(other.id, 'admin');
      f.api.handle({ method: 'GET', target: SYSTEM_FUNCTIONS_PATH, headers });
      const log = JSON.stringify(f.store.moduleLog());
      assert.ok(f.store.moduleLog().length >= 4, 'the log has entries to scan');
      for (const secret of secrets) assert.ok(!log.includes(secret), 'module log');
      assert.ok(!JSON.stringify(f.executor.events()).includes(other.secret));
    });
  } finally {
    methods.forEach((name, i) => {
      console[name] = originals[i]!;
    });
    process.stdout.write = originalStdout;
    process.stderr.write = originalStderr;
  }
  const output = captured.join('\n');
  for (const secret of secrets) assert.ok(!output.includes(secret), 'console');
});

test('a TokenStore needs only the store: its users decide the right and its clock the expiry', () => {
  const f = createFixture((state) => {
    state.users.push({ login: 'ops', passwordSha512: 'a'.repeat(128), admin: true });
  });
  try {
    const tokens = new TokenStore(f.store);
    const created = tokens.create({ label: 'ops token' }, 'ops');
    assert.ok(tokens.verify(created.secret));
    assert.equal(f.tokens.verify(created.secret), null, 'stores are independent');
  } finally {
    f.close();
  }
});
