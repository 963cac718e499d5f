import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import fc from 'fast-check';
import { EndpointConfigError } from '../../../../../simulators/pbx/monitoring/endpoint/monitoring-endpoint.ts';
import { renderFormat } from '../../../../../simulators/pbx/snapshot/render/render-format.ts';
import type { SnapshotFormat } from '../../../../../simulators/pbx/state/types.ts';
import { eventually, exchange, parseHttp, request, startEndpoint, tryConnect } from './endpoint-harness.ts';

const NO_FAULTS = { renderError: false, jsonError: false };

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** Occupies a port P whose neighbour P + 1 is free at the moment of return. */
async function occupyWithFreeNeighbour(): Promise<{ blocker: Server; port: number }> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const blocker = await listenOn(0);
    const port = (blocker.address() as { port: number }).port;
    if (port < 65_535) {
      const probe = await listenOn(port + 1).catch(() => undefined);
      if (probe) {
        await closeServer(probe);
        return { blocker, port };
      }
    }
    await closeServer(blocker);
  }
  throw new Error('found no port with a free neighbour');
}

test('MON-RAW-MODE: a client that sends nothing gets the agent text raw, starting with <<, then EOF', async () => {
  const pbx = await startEndpoint();
  try {
    const { bytes, ending } = await exchange(pbx.port());
    assert.equal(ending, 'end');
    assert.equal(bytes.subarray(0, 2).toString('latin1'), '<<');
    assert.ok(bytes.length >= 16);
    assert.ok(!bytes.toString('latin1').startsWith('HTTP/'));
    assert.deepEqual(bytes, renderFormat(pbx.cache.get(), 'checkmk', NO_FAULTS));
  } finally {
    await pbx.close();
  }
});

test('MON-RAW-MODE: a client that closes its sending side at once still gets the raw answer', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.rawGraceMs = 60_000;
  });
  try {
    const { bytes, ending } = await exchange(pbx.port(), { endWrite: true });
    assert.equal(ending, 'end');
    assert.equal(bytes.subarray(0, 2).toString('latin1'), '<<');
  } finally {
    await pbx.close();
  }
});

for (const [path, format, type] of [
  ['/checkmk', 'checkmk', 'text/plain; charset=utf-8'],
  ['/xml', 'xml', 'application/xml; charset=utf-8'],
  ['/json', 'json', 'application/json; charset=utf-8'],
] as const) {
  test(`MON-GET-${format.toUpperCase()}: GET ${path} answers 200 ${type} with Content-Length and Connection: close`, async () => {
    const pbx = await startEndpoint();
    try {
      const { bytes, ending } = await exchange(pbx.port(), { send: request('GET', path) });
      assert.equal(ending, 'end');
      const answer = parseHttp(bytes);
      assert.equal(answer.statusLine, 'HTTP/1.1 200 OK');
      assert.equal(answer.headers.get('content-type'), type);
      assert.equal(answer.headers.get('content-length'), String(answer.body.length));
      assert.equal(answer.headers.get('connection'), 'close');
      assert.deepEqual(answer.body, renderFormat(pbx.cache.get(), format, NO_FAULTS));
    } finally {
      await pbx.close();
    }
  });
}

test('MON-HTTP-METHODS: POST is answered without waiting for its body', async () => {
  const pbx = await startEndpoint();
  try {
    const send = `${request('POST', '/json', 'Content-Length: 100000\r\n')}{"partial":`;
    const answer = parseHttp((await exchange(pbx.port(), { send })).bytes);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(answer.headers.get('content-length'), String(answer.body.length));
  } finally {
    await pbx.close();
  }
});

test('MON-HTTP-METHODS: HEAD gets the GET headers and no body', async () => {
  const pbx = await startEndpoint();
  try {
    const get = parseHttp((await exchange(pbx.port(), { send: request('GET', '/xml') })).bytes);
    const head = parseHttp((await exchange(pbx.port(), { send: request('HEAD', '/xml') })).bytes);
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers.get('content-length'), String(get.body.length));
    assert.equal(head.headers.get('content-type'), 'application/xml; charset=utf-8');
  } finally {
    await pbx.close();
  }
});

test('MON-HTTP-METHODS: OPTIONS is answered in HTTP mode with the snapshot and Allow', async () => {
  const pbx = await startEndpoint();
  try {
    const answer = parseHttp((await exchange(pbx.port(), { send: request('OPTIONS', '/json') })).bytes);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
    assert.equal(answer.headers.get('content-length'), String(answer.body.length));
    assert.doesNotThrow(() => JSON.parse(answer.body.toString('utf8')));
  } finally {
    await pbx.close();
  }
});

test('other methods get 405 with Allow', async () => {
  const pbx = await startEndpoint();
  try {
    const answer = parseHttp((await exchange(pbx.port(), { send: request('DELETE', '/json') })).bytes);
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
  } finally {
    await pbx.close();
  }
});

test('MON-QUERY-OVERRIDES-PATH: /xml?format=json answers JSON', async () => {
  const pbx = await startEndpoint();
  try {
    const answer = parseHttp(
      (await exchange(pbx.port(), { send: request('GET', '/xml?format=json') })).bytes,
    );
    assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(answer.body, renderFormat(pbx.cache.get(), 'json', NO_FAULTS));
  } finally {
    await pbx.close();
  }
});

test('MON-UNKNOWN-PATH, MON-UNKNOWN-FORMAT: unknown path or format value gives the default format, 200', async () => {
  const pbx = await startEndpoint();
  try {
    for (const target of ['/metrics', '/?format=yaml', '/xml?format=foo']) {
      const answer = parseHttp((await exchange(pbx.port(), { send: request('GET', target) })).bytes);
      assert.equal(answer.status, 200, target);
      assert.equal(answer.headers.get('content-type'), 'text/plain; charset=utf-8', target);
      assert.equal(answer.body.subarray(0, 2).toString('latin1'), '<<', target);
    }
  } finally {
    await pbx.close();
  }
});

test('MON-DEFAULT-FORMAT-CONFIGURABLE: the configured default serves raw clients and unknown paths', async () => {
  const pbx = await startEndpoint();
  try {
    pbx.store.update((s) => {
      s.monitoring.defaultFormat = 'json';
    });
    const raw = await exchange(pbx.port());
    assert.doesNotThrow(() => JSON.parse(raw.bytes.toString('utf8')));
    assert.deepEqual(raw.bytes, renderFormat(pbx.cache.get(), 'json', NO_FAULTS));
    const unknown = parseHttp((await exchange(pbx.port(), { send: request('GET', '/nothing-here') })).bytes);
    assert.equal(unknown.headers.get('content-type'), 'application/json; charset=utf-8');
  } finally {
    await pbx.close();
  }
});

test('MON-UTF8: non-ASCII state text arrives UTF-8 encoded', async () => {
  const pbx = await startEndpoint((s) => {
    s.licence.owner = 'Grüße & Söhne AG';
  });
  try {
    const answer = parseHttp((await exchange(pbx.port(), { send: request('GET', '/json') })).bytes);
    assert.ok(answer.body.includes(Buffer.from('Grüße & Söhne AG', 'utf8')));
    assert.equal(answer.headers.get('content-length'), String(answer.body.length));
    assert.equal(Buffer.from(answer.body.toString('utf8'), 'utf8').length, answer.body.length);
  } finally {
    await pbx.close();
  }
});

test('MON-AUTH-UNLISTED-CLOSED: an unlisted peer is closed without a single byte', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [{ entry: '127.0.0.1/32', active: true }];
  });
  try {
    const { bytes } = await exchange(pbx.port(), { localAddress: '127.0.0.2' });
    assert.equal(bytes.length, 0);
    const listed = await exchange(pbx.port(), { localAddress: '127.0.0.1' });
    assert.equal(listed.bytes.subarray(0, 2).toString('latin1'), '<<');
    assert.ok(pbx.store.moduleLog().some((e) => e.message.includes('127.0.0.2')));
  } finally {
    await pbx.close();
  }
});

test('MON-AUTH-UNLISTED-CLOSED: an unlisted peer that sends an HTTP request gets nothing either', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [{ entry: '127.0.0.1', active: true }];
  });
  try {
    const { bytes } = await exchange(pbx.port(), {
      localAddress: '127.0.0.3',
      send: request('GET', '/json'),
    });
    assert.equal(bytes.length, 0);
  } finally {
    await pbx.close();
  }
});

test('MON-AUTH-HOSTS-CIDR: a CIDR entry serves the peers inside it only', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [{ entry: '127.0.0.0/30', active: true }];
  });
  try {
    for (const [localAddress, served] of [
      ['127.0.0.1', true],
      ['127.0.0.3', true],
      ['127.0.0.4', false],
      ['127.0.1.1', false],
    ] as const) {
      const { bytes } = await exchange(pbx.port(), { localAddress });
      assert.equal(bytes.length > 0, served, localAddress);
    }
  } finally {
    await pbx.close();
  }
});

test('inactive entries are ignored, and list changes count from the next connection', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [
      { entry: '127.0.0.1', active: true },
      { entry: '127.0.0.2', active: false },
    ];
  });
  try {
    assert.equal((await exchange(pbx.port(), { localAddress: '127.0.0.2' })).bytes.length, 0);
    pbx.store.update((s) => {
      s.monitoring.hosts[1]!.active = true;
    });
    assert.ok((await exchange(pbx.port(), { localAddress: '127.0.0.2' })).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('an invalid active entry is logged and ignored; the valid ones still work', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [
      { entry: 'pbx-monitor.example', active: true },
      { entry: '127.0.0.1', active: true },
    ];
  });
  try {
    assert.ok(
      pbx.store.moduleLog().some((e) => e.level === 'error' && e.message.includes("'pbx-monitor.example'")),
    );
    assert.ok((await exchange(pbx.port())).bytes.length > 0);
    pbx.store.update((s) => {
      s.monitoring.hosts = [{ entry: '127.0.0.1/33', active: true }];
    });
    await eventually(() => pbx.endpoint.status().state === 'stopped', 'no valid active entry: stopped');
  } finally {
    await pbx.close();
  }
});

test('MON-AUTH-EMPTY-LIST: with no active entry the endpoint does not start', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [{ entry: '127.0.0.1', active: false }];
  });
  try {
    assert.deepEqual([pbx.endpoint.status().state, pbx.endpoint.status().port], ['stopped', null]);
    pbx.store.update((s) => {
      s.monitoring.hosts[0]!.active = true;
    });
    assert.equal((await pbx.endpoint.apply()).state, 'listening');
    assert.ok((await exchange(pbx.port())).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('MON-AUTH-EMPTY-LIST: deactivating the last entry closes the port (refused), reactivating opens it', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.hosts = [{ entry: '127.0.0.1', active: true }];
  });
  try {
    const port = pbx.port();
    pbx.store.update((s) => {
      s.monitoring.hosts[0]!.active = false;
    });
    await eventually(() => pbx.endpoint.status().state === 'stopped', 'stopped without active entry');
    assert.equal(await tryConnect(port), 'ECONNREFUSED');
    pbx.store.update((s) => {
      s.monitoring.hosts[0]!.active = true;
    });
    await eventually(() => pbx.endpoint.status().state === 'listening', 'listening with an active entry');
    assert.ok((await exchange(pbx.port())).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('MON-STATE-TILE-OFF: switching the tile off refuses connections; on again listens again', async () => {
  const pbx = await startEndpoint();
  try {
    const port = pbx.port();
    pbx.store.update((s) => {
      s.monitoring.tileOn = false;
    });
    const stopped = await pbx.endpoint.apply();
    assert.deepEqual([stopped.state, stopped.port], ['stopped', null]);
    assert.equal(await tryConnect(port), 'ECONNREFUSED');
    pbx.store.update((s) => {
      s.monitoring.tileOn = true;
    });
    const again = await pbx.endpoint.apply();
    assert.equal(again.state, 'listening');
    assert.equal(again.port, port, 'port 0 keeps its ephemeral port across a stop and start');
    assert.equal((await exchange(pbx.port())).bytes.subarray(0, 2).toString('latin1'), '<<');
  } finally {
    await pbx.close();
  }
});

test('MON-STATE-UNLICENSED: without a valid licence the endpoint is stopped and refuses', async () => {
  const pbx = await startEndpoint();
  try {
    const port = pbx.port();
    pbx.store.update((s) => {
      s.licence.valid = false;
    });
    assert.equal((await pbx.endpoint.apply()).state, 'stopped');
    assert.equal(await tryConnect(port), 'ECONNREFUSED');
    pbx.store.update((s) => {
      s.licence.valid = true;
    });
    assert.equal((await pbx.endpoint.apply()).state, 'listening');
  } finally {
    await pbx.close();
  }
});

test('MON-STATE-TILE-OFF: switching off drops open connections', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.rawGraceMs = 60_000;
  });
  try {
    const pending = exchange(pbx.port(), { send: 'GET /xml' });
    await eventually(() => pbx.endpoint.openConnections() === 1, 'the server holds the connection');
    pbx.store.update((s) => {
      s.monitoring.tileOn = false;
    });
    await pbx.endpoint.apply();
    const { bytes } = await pending;
    assert.equal(bytes.length, 0);
  } finally {
    await pbx.close();
  }
});

test('the endpoint follows store changes by itself, without apply()', async () => {
  const pbx = await startEndpoint();
  try {
    const port = pbx.port();
    pbx.store.update((s) => {
      s.monitoring.tileOn = false;
    });
    await eventually(() => pbx.endpoint.status().state === 'stopped', 'stopped after tile off');
    assert.equal(await tryConnect(port), 'ECONNREFUSED');
    pbx.store.patch({ licence: { valid: false } });
    pbx.store.patch({ monitoring: { tileOn: true } });
    pbx.store.patch({ licence: { valid: true } });
    await eventually(
      () => pbx.endpoint.status().state === 'listening',
      'listening after tile on and licence back',
    );
    assert.ok((await exchange(pbx.port())).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('rapid changes settle on the last state with one listener', async () => {
  const pbx = await startEndpoint();
  try {
    for (let i = 0; i < 10; i++) {
      pbx.store.update((s) => {
        s.monitoring.tileOn = i % 2 === 1;
      });
    }
    const status = await pbx.endpoint.apply();
    assert.equal(status.state, 'listening');
    assert.ok((await exchange(pbx.port())).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('a port change restarts the listener on the new port', async () => {
  const pbx = await startEndpoint();
  try {
    const first = pbx.port();
    const { blocker, port } = await occupyWithFreeNeighbour();
    await closeServer(blocker);
    pbx.store.update((s) => {
      s.monitoring.tileOn = true;
      s.monitoring.port = port;
    });
    const status = await pbx.endpoint.apply();
    assert.deepEqual([status.state, status.port, status.configuredPort], ['listening', port, port]);
    if (first !== port) assert.equal(await tryConnect(first), 'ECONNREFUSED');
    assert.ok((await exchange(port)).bytes.length > 0);
  } finally {
    await pbx.close();
  }
});

test('MON-STATE-PORT-FALLBACK: a busy port is followed by the next one, with a UI warning naming both', async () => {
  const { blocker, port } = await occupyWithFreeNeighbour();
  const pbx = await startEndpoint((s) => {
    s.monitoring.port = port;
  });
  try {
    const status = pbx.endpoint.status();
    assert.deepEqual([status.state, status.port, status.configuredPort], ['listening', port + 1, port]);
    const warning = pbx.store
      .warnings()
      .find((w) => w.includes(String(port)) && w.includes(String(port + 1)));
    assert.ok(warning, JSON.stringify(pbx.store.warnings()));
    assert.ok((await exchange(port + 1)).bytes.length > 0);
    await closeServer(blocker);
    const restarted = await pbx.endpoint.apply({ restart: true });
    assert.equal(restarted.port, port);
    assert.ok(!pbx.store.warnings().includes(warning));
  } finally {
    await pbx.close();
    await closeServer(blocker).catch(() => {});
  }
});

test('MON-STATE-BOTH-PORTS-BUSY: with the port and the next one busy the endpoint is inactive', async () => {
  const { blocker, port } = await occupyWithFreeNeighbour();
  const neighbour = await listenOn(port + 1);
  const pbx = await startEndpoint((s) => {
    s.monitoring.port = port;
  });
  try {
    assert.deepEqual(pbx.endpoint.status(), {
      state: 'inactive',
      port: null,
      host: '127.0.0.1',
      configuredPort: port,
      firewallOpenFor: [],
    });
    assert.ok(pbx.store.moduleLog().some((e) => e.level === 'error' && e.message.includes(String(port + 1))));
  } finally {
    await pbx.close();
    await closeServer(blocker);
    await closeServer(neighbour);
  }
});

test('MON-IPV4-ONLY: a non-IPv4 listen address is refused with a clear error', async () => {
  await assert.rejects(
    startEndpoint((s) => {
      s.monitoring.host = '::1';
    }),
    (error: unknown) =>
      error instanceof EndpointConfigError && /IPv4/.test(error.message) && error.message.includes('::1'),
  );
});

test('MON-ERR-RENDER-HTTP, MON-ERR-RENDER-RAW: a render error is 500 in HTTP and one ERROR: line raw', async () => {
  const pbx = await startEndpoint();
  try {
    pbx.store.injectFault('render-error');
    pbx.cache.invalidate();
    const http = parseHttp((await exchange(pbx.port(), { send: request('GET', '/checkmk') })).bytes);
    assert.equal(http.statusLine, 'HTTP/1.1 500 Internal Server Error');
    assert.equal(http.headers.get('content-length'), String(http.body.length));
    assert.equal(http.headers.get('connection'), 'close');
    const raw = (await exchange(pbx.port())).bytes.toString('utf8');
    assert.match(raw, /^ERROR: [^\n]+\n$/);
  } finally {
    await pbx.close();
  }
});

test('MON-ERR-JSON: a JSON serialisation error gives a body {"error": <text>}', async () => {
  const pbx = await startEndpoint();
  try {
    pbx.store.injectFault('json-serialisation-error');
    pbx.cache.invalidate();
    const answer = parseHttp((await exchange(pbx.port(), { send: request('GET', '/json') })).bytes);
    assert.equal(answer.status, 500);
    const body = JSON.parse(answer.body.toString('utf8'));
    assert.equal(typeof body.error, 'string');
    assert.deepEqual(Object.keys(body), ['error']);
    assert.equal(answer.headers.get('content-length'), String(answer.body.length));
    const xml = parseHttp((await exchange(pbx.port(), { send: request('GET', '/xml') })).bytes);
    assert.equal(xml.status, 200);
  } finally {
    await pbx.close();
  }
});

test('while the PBX restarts, connections are dropped without a byte; afterwards served again', async () => {
  const pbx = await startEndpoint();
  try {
    const now = pbx.store.clock.now();
    pbx.store.update((s) => {
      s.maintenance.restartingUntil = now + 60_000;
    });
    assert.equal((await exchange(pbx.port(), { send: request('GET', '/json') })).bytes.length, 0);
    pbx.store.update((s) => {
      s.maintenance.restartingUntil = now;
    });
    assert.equal(
      parseHttp((await exchange(pbx.port(), { send: request('GET', '/json') })).bytes).status,
      200,
    );
  } finally {
    await pbx.close();
  }
});

test('close() destroys open connections and stops listening', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.rawGraceMs = 60_000;
  });
  const port = pbx.port();
  const pending = exchange(port, { send: 'GET /' });
  try {
    await eventually(() => pbx.endpoint.openConnections() === 1, 'the server holds the connection');
  } finally {
    await pbx.close();
  }
  assert.equal((await pending).bytes.length, 0);
  assert.equal(await tryConnect(port), 'ECONNREFUSED');
  assert.equal(pbx.endpoint.status().state, 'stopped');
});

test('MON-HTTP-CONTENT-LENGTH: Content-Length equals the body bytes for generated targets and methods', async () => {
  const pbx = await startEndpoint((s) => {
    s.monitoring.rawGraceMs = 5000;
  });
  try {
    const format = fc.constantFrom<SnapshotFormat | 'other'>('checkmk', 'xml', 'json', 'other');
    const target = fc
      .tuple(format, fc.option(format), fc.stringMatching(/^[a-z0-9]{0,6}$/))
      .map(([path, query, noise]) => `/${path}${noise}${query ? `?format=${query}` : ''}`);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'OPTIONS'), target, async (method, path) => {
        const { bytes } = await exchange(pbx.port(), { send: request(method, path) });
        const answer = parseHttp(bytes);
        assert.equal(answer.status, 200);
        assert.equal(Number(answer.headers.get('content-length')), answer.body.byteLength);
      }),
      { numRuns: 40 },
    );
  } finally {
    await pbx.close();
  }
});
