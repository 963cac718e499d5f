import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  COMMAND_NAMES,
  type CommandName,
  isCommandName,
} from '../../../../simulators/pbx/maintenance/command-names.ts';
import { COMMAND_PARAMETERS } from '../../../../simulators/pbx/maintenance/command-parameters.ts';
import {
  MAINTENANCE_BASE_PATH,
  MAX_BODY_BYTES,
  SYSTEM_FUNCTIONS_PATH,
} from '../../../../simulators/pbx/maintenance/maintenance-api.ts';
import { createFixture, encodeBody, json, type MaintenanceFixture } from './maintenance-fixture.ts';
import { validatorFor } from './schema-validator.ts';

async function withFixture<T>(run: (f: MaintenanceFixture) => T | Promise<T>): Promise<T> {
  const f = createFixture();
  try {
    return await run(f);
  } finally {
    f.close();
  }
}

const commandArb = fc.constantFrom(...COMMAND_NAMES);

test('MAINT-POST-BODY-UP-TO-1MIB, MAINT-ERR-413-BODY-TOO-LARGE: bodies up to 1 MiB are accepted, larger get 413', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_BODY_BYTES - 300, max: MAX_BODY_BYTES + 300 }),
        fc.integer({ min: 0, max: 255 }),
        commandArb,
        (size, fill, command) => {
          const response = f.post(command, new Uint8Array(size).fill(fill));
          if (size <= MAX_BODY_BYTES)
            assert.deepEqual([response.status, json(response)], [200, { status: 'ok' }]);
          else
            assert.deepEqual(
              [response.status, json(response)],
              [413, { ok: false, error: 'body-too-large' }],
            );
        },
      ),
      { numRuns: 60 },
    );
  });
});

const ALLOWED: Record<number, string[]> = {
  200: ['ok', 'command-list'],
  401: ['error'],
  404: ['error'],
  413: ['body-too-large'],
};

const MESSAGES: Record<number, string[]> = {
  401: ['invalid or missing API token'],
  404: ['unknown endpoint', 'unknown command'],
};

test('MAINT-JSON-RESPONSES, MAINT-ERR-SHAPE: generated malformed requests get only error-table answers, never 5xx', async () => {
  await withFixture((f) => {
    const segment = fc.oneof(
      fc.constantFrom('system-functions', 'v1', 'System-Functions', '', '..', '%2F', ...COMMAND_NAMES),
      fc.string({ maxLength: 12 }),
    );
    const target = fc
      .tuple(
        fc.array(segment, { maxLength: 4 }),
        fc.boolean(),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
      )
      .map(([segments, slash, query]) => {
        const path = `${MAINTENANCE_BASE_PATH}${segments.map((s) => `/${s}`).join('')}${slash ? '/' : ''}`;
        return query === undefined ? path : `${path}?${query}`;
      });
    const authorization = fc.oneof(
      fc.constant(undefined),
      fc.constant(`Bearer ${f.secret}`),
      fc.string({ maxLength: 60 }),
      fc.string({ maxLength: 60 }).map((s) => `Bearer ${s}`),
      fc.base64String({ maxLength: 60 }).map((s) => `Basic ${s}`),
      fc.constant([`Bearer ${f.secret}`, 'Bearer x'] as string[]),
    );
    const headers = fc
      .tuple(
        authorization,
        fc.dictionary(fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/), fc.string({ maxLength: 40 })),
      )
      .map(([auth, extra]) => {
        const all: Record<string, string | string[] | undefined> = { ...extra };
        delete all['authorization'];
        if (auth !== undefined) all['authorization'] = auth;
        return all;
      });
    const method = fc.oneof(
      fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'get', 'post'),
      fc.string({ maxLength: 10 }),
    );
    const body = fc.oneof(
      { weight: 8, arbitrary: fc.uint8Array({ maxLength: 512 }) },
      { weight: 3, arbitrary: fc.json().map((text) => encodeBody(text)) },
      { weight: 1, arbitrary: fc.constant(new Uint8Array(MAX_BODY_BYTES + 1)) },
    );
    fc.assert(
      fc.property(method, target, headers, body, (m, t, h, b) => {
        const response = f.api.handle({ method: m, target: t, headers: h, body: b });
        assert.ok(ALLOWED[response.status], `status ${response.status} for ${m} ${t}`);
        assert.equal(response.headers['content-type'], 'application/json');
        const value = json(response);
        assert.ok(
          ALLOWED[response.status]!.some((schema) => validatorFor(schema)(value)),
          `body ${response.body}`,
        );
        const message = (value as { message?: string }).message;
        if (MESSAGES[response.status]) assert.ok(MESSAGES[response.status]!.includes(message ?? ''), message);
        const authorised = h['authorization'] === `Bearer ${f.secret}`;
        if (!authorised) assert.equal(response.status, 401);
        if (response.status === 200) {
          const path = t.split('?')[0]!;
          const name = path.slice(SYSTEM_FUNCTIONS_PATH.length + 1);
          const listing = m === 'GET' && path === SYSTEM_FUNCTIONS_PATH;
          const command = m === 'POST' && path.startsWith(`${SYSTEM_FUNCTIONS_PATH}/`) && isCommandName(name);
          assert.ok(listing || command, `200 for ${m} ${t}`);
        }
      }),
      { numRuns: 400 },
    );
  });
});

/** Values for one known parameter: usable ones, and ones of other JSON types. */
const PARAMETER_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  scope: fc.oneof(fc.constantFrom('all', 'pbx', 'support', 'bogus'), fc.jsonValue()),
  version: fc.oneof(fc.constantFrom('12.4.2.0', '13.0.0.1', '99.0'), fc.jsonValue()),
  executeAt: fc.oneof(
    fc.constantFrom('2026-01-01T00:30', '2025-06-01T12:00', '2026-13-01T00:00'),
    fc.jsonValue(),
  ),
  confirmed: fc.oneof(fc.boolean(), fc.jsonValue()),
  type: fc.oneof(fc.constantFrom('sip', 'all', 'dect', ''), fc.jsonValue()),
  mode: fc.oneof(fc.constantFrom('standard', 'full', 'install', 'cancel', 'fast'), fc.jsonValue()),
  startTime: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.jsonValue()),
  endTime: fc.oneof(fc.integer(), fc.jsonValue()),
};

function knownParameters(command: CommandName): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of COMMAND_PARAMETERS[command]) model[name] = PARAMETER_VALUES[name]!;
  return fc.record(model, { requiredKeys: [] });
}

function unknownFields(command: CommandName): fc.Arbitrary<Record<string, unknown>> {
  const known = new Set<string>([...COMMAND_PARAMETERS[command], 'trigger', '__proto__']);
  return fc
    .dictionary(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom('scope', 'version', 'confirmed', 'type', 'mode', 'extra'),
      ),
      fc.jsonValue(),
      { maxKeys: 5 },
    )
    .map((fields) => Object.fromEntries(Object.entries(fields).filter(([key]) => !known.has(key))));
}

async function outcomeOf(command: CommandName, body: Record<string, unknown>) {
  return withFixture(async (f) => {
    const response = f.post(command, body);
    await f.settle();
    const outcomes = f.outcomes().map(({ message, data }) => ({ message, data: { ...data, commandId: 0 } }));
    const events = f.executor.events().map((event) => ({ ...event, commandId: 0, seq: 0 }));
    return { status: response.status, outcomes, events, state: f.store.read() };
  });
}

test('MAINT-TRIGGER-SET-TO-API, MAINT-POST-UNKNOWN-FIELDS: trigger is always API and unknown fields never change the outcome', async () => {
  await fc.assert(
    fc.asyncProperty(
      commandArb.chain((command) =>
        fc.tuple(
          fc.constant(command),
          knownParameters(command),
          unknownFields(command),
          fc.option(fc.jsonValue(), { nil: undefined }),
        ),
      ),
      async ([command, known, unknown, trigger]) => {
        const plain = await outcomeOf(command, known);
        const noisy = await outcomeOf(command, {
          ...unknown,
          ...known,
          ...(trigger === undefined ? {} : { trigger }),
        });
        assert.equal(plain.status, 200);
        assert.deepEqual(noisy, plain);
        assert.equal(noisy.outcomes.length, 1);
        const data = noisy.outcomes[0]!.data as unknown as {
          trigger: string;
          parameters: { trigger: string };
        };
        assert.equal(data.trigger, 'API');
        assert.equal(data.parameters.trigger, 'API');
        for (const event of noisy.events) {
          assert.equal(event.trigger, 'API');
          assert.equal(event.parameters.trigger, 'API');
        }
      },
    ),
    { numRuns: 150 },
  );
});

test('MAINT-POST-INVALID-JSON-ACCEPTED, MAINT-POST-INVALID-JSON-NO-PARAMS: invalid JSON is accepted and runs without parameters', async () => {
  const invalidJson = fc.string({ minLength: 1, maxLength: 80 }).filter((text) => {
    if (text.trim() === '') return false;
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });
  await fc.assert(
    fc.asyncProperty(invalidJson, commandArb, async (text, command) => {
      await withFixture(async (f) => {
        assert.deepEqual(json(f.post(command, text)), { status: 'ok' });
        await f.settle();
        const [outcome] = f.outcomes();
        assert.equal(outcome?.data['body'], 'invalid-json');
        assert.deepEqual(outcome?.data['parameters'], { trigger: 'API' });
        const required = command === 'DeleteCallData' || command === 'ProvisionDevices';
        if (required) assert.equal(outcome?.message, 'maintenance command discarded');
      });
    }),
    { numRuns: 100 },
  );
});

test('MAINT-AUTH-401-INVALID: any token never issued gets 401', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ minLength: 1 }), fc.base64String({ minLength: 40, maxLength: 48 })),
        (token) => {
          fc.pre(token !== f.secret);
          const response = f.api.handle({
            method: 'GET',
            target: SYSTEM_FUNCTIONS_PATH,
            headers: { authorization: `Bearer ${token}` },
          });
          assert.equal(response.status, 401);
          assert.deepEqual(json(response), { status: 'error', message: 'invalid or missing API token' });
        },
      ),
      { numRuns: 300 },
    );
  });
});

test('MAINT-TOKEN-NO-SCOPING: every created token authorises the list and every command', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          label: fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ''),
          lifetime: fc.option(fc.integer({ min: 1, max: 10 ** 12 }), { nil: undefined }),
        }),
        { minLength: 1, maxLength: 5 },
      ),
      async (specs) => {
        await withFixture((f) => {
          for (const { label, lifetime } of specs) {
            const expiresAt = lifetime === undefined ? undefined : f.clock.now() + lifetime;
            const { secret } = f.tokens.create({ label, expiresAt }, 'admin');
            const headers = { authorization: `Bearer ${secret}` };
            assert.equal(f.api.handle({ method: 'GET', target: SYSTEM_FUNCTIONS_PATH, headers }).status, 200);
            for (const command of COMMAND_NAMES)
              assert.equal(f.post(command, undefined, headers).status, 200);
          }
        });
      },
    ),
    { numRuns: 30 },
  );
});

test('MAINT-AUTH-NO-LOCKOUT: after any number of failed checks a valid token is still accepted', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 50 }), { maxLength: 300 }), (bad) => {
        for (const token of bad) {
          f.api.handle({
            method: 'GET',
            target: SYSTEM_FUNCTIONS_PATH,
            headers: { authorization: `Bearer ${token}x` },
          });
        }
        assert.equal(f.post('DeleteFaxes').status, 200);
      }),
      { numRuns: 50 },
    );
  });
});

test('MAINT-ERR-404-UNKNOWN-COMMAND: any name outside the list gets unknown command', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/[/?]/.test(s) && !isCommandName(s)),
        (name) => {
          const response = f.post(name);
          assert.equal(response.status, 404);
          assert.deepEqual(json(response), { status: 'error', message: 'unknown command' });
        },
      ),
      { numRuns: 300 },
    );
    assert.equal(f.executor.pending(), 0);
  });
});

test('MAINT-ERR-404-UNKNOWN-PATH: any other path under the base gets unknown endpoint', async () => {
  await withFixture((f) => {
    fc.assert(
      fc.property(fc.webPath(), fc.constantFrom('GET', 'POST'), (path, method) => {
        const target = `${MAINTENANCE_BASE_PATH}${path.startsWith('/') ? path : `/${path}`}`.split('?')[0]!;
        fc.pre(target !== SYSTEM_FUNCTIONS_PATH && !target.startsWith(`${SYSTEM_FUNCTIONS_PATH}/`));
        const response = f.api.handle({ method, target, headers: { authorization: `Bearer ${f.secret}` } });
        assert.equal(response.status, 404);
        assert.deepEqual(json(response), { status: 'error', message: 'unknown endpoint' });
      }),
      { numRuns: 300 },
    );
  });
});

test('MAINT-PARAM-TIMES-AS-NUMBERS: startTime and endTime numbers are used as given, strings are refused', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
      fc.constantFrom('DeleteRecordings', 'DeleteFaxes', 'DeleteSystemMessages', 'DeleteLogs'),
      async (startTime, endTime, command) => {
        await withFixture(async (f) => {
          f.post(command, { startTime, endTime });
          f.post(command, { startTime: String(startTime), endTime });
          await f.settle();
          const [event, ...others] = f.executor.events();
          assert.equal(others.length, 0);
          // JSON has no -0: the value as it travels on the wire is what must arrive.
          assert.equal(event?.parameters.startTime, JSON.parse(JSON.stringify(startTime)));
          assert.equal(event?.parameters.endTime, endTime);
          const discarded = f.outcomes()[1];
          assert.equal(discarded?.message, 'maintenance command discarded');
          assert.equal(discarded?.data['reason'], 'wrong-type');
          assert.equal(discarded?.data['parameter'], 'startTime');
        });
      },
    ),
    { numRuns: 80 },
  );
});
