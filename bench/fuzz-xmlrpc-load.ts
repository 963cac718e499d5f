import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { MAINTENANCE_BASE_PATH, start } from '../simulators/pbx/index.ts';
import { exchange, hostPort, httpRequest } from '../src/fuzz/wire.ts';
import { median } from './http-load.ts';
import { fmt } from './load.ts';

const SAMPLES = Number(process.env.BENCH_XMLRPC_SAMPLES ?? 200);
const SENDERS = 4;
const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * The senders, on another thread: each loops POST /xml-rpc without credentials carrying `body`,
 * either with a declared Content-Length or chunked (the server must count it).
 */
const SENDER_CODE = `
const { connect } = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const { host, port, chunked, path, declared } = workerData;
const body = Buffer.from(workerData.body);
const head = chunked
  ? 'POST ' + path + ' HTTP/1.1\\r\\nHost: b\\r\\nContent-Type: text/xml\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n'
  : 'POST ' + path + ' HTTP/1.1\\r\\nHost: b\\r\\nContent-Type: text/xml\\r\\nContent-Length: ' + (declared || body.length) + '\\r\\n\\r\\n';
const payload = chunked
  ? Buffer.concat([Buffer.from(head), Buffer.from(body.length.toString(16) + '\\r\\n'), body, Buffer.from('\\r\\n0\\r\\n\\r\\n')])
  : Buffer.concat([Buffer.from(head), body]);
let stop = false, sent = 0, bytes = 0, current;
parentPort.on('message', () => { stop = true; if (current) current.destroy(); });
function one() {
  if (stop) { parentPort.postMessage({ sent, bytes }); return; }
  const socket = connect({ host, port }, () => {
    if (!declared) { bytes += payload.length; return socket.end(payload); }
    // A declared body far larger than what is sent at once: keep sending until the server closes.
    socket.write(head);
    const pump = () => {
      while (!stop && !socket.destroyed && socket.write(body)) bytes += body.length;
    };
    socket.on('drain', pump);
    pump();
  });
  current = socket;
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.on('close', () => { sent++; setImmediate(one); });
}
one();
`;

interface Shape {
  label: string;
  body: string;
  chunked?: boolean;
  /** Where the senders post; default `/xml-rpc`. */
  path?: string;
  /** A declared `Content-Length` far above the body, which the sender then sends over and over. */
  declared?: number;
}

const DATA_QUERY = '<methodName>Monitoring.GetMonitoringData</methodName>';

/** A `<param>` holding one string of `bytes` letters. */
function stringParam(bytes: number): string {
  return `<params><param><value><string>${'a'.repeat(bytes)}</string></value></param></params>`;
}

/** A struct of `count` small members: many elements, the costly case for a parser. */
function manyMembers(count: number): string {
  const member = '<member><name>m</name><value><i4>1</i4></value></member>';
  return `<params><param><value><struct>${member.repeat(count)}</struct></value></param></params>`;
}

/** Arrays nested `depth` deep. */
function deepArray(depth: number): string {
  return `<params><param>${'<value><array><data>'.repeat(depth)}${'</data></array></value>'.repeat(depth)}</param></params>`;
}

/**
 * The body shapes an unauthenticated sender uses (issue 12, defect 5; issue 20, item 2): the plain
 * data query the server refuses from its method name, and shapes whose method name does not stand
 * plainly at the start (a comment or a long declaration first, `params` before `methodName`), an
 * unknown method, and the method that needs no credentials, each just under the 64 KiB limit.
 */
const SHAPES: Shape[] = [
  {
    label: '1 MiB, Content-Length',
    body: `<?xml version="1.0"?><methodCall>${DATA_QUERY}${stringParam(MiB - 4096)}</methodCall>`,
  },
  {
    label: '1 MiB, chunked',
    body: `<?xml version="1.0"?><methodCall>${DATA_QUERY}${stringParam(MiB - 4096)}</methodCall>`,
    chunked: true,
  },
  {
    label: '60 KiB, plain',
    body: `<?xml version="1.0"?><methodCall>${DATA_QUERY}${stringParam(60 * KiB)}</methodCall>`,
  },
  {
    label: '60 KiB, comment first',
    body: `<?xml version="1.0"?><!-- hi --><methodCall>${DATA_QUERY}${stringParam(60 * KiB)}</methodCall>`,
  },
  {
    label: '60 KiB, params first',
    body: `<?xml version="1.0"?><methodCall>${stringParam(60 * KiB)}${DATA_QUERY}</methodCall>`,
  },
  {
    label: '60 KiB, members, params first',
    body: `<?xml version="1.0"?><methodCall>${manyMembers(1000)}${DATA_QUERY}</methodCall>`,
  },
  {
    label: '60 KiB, nested arrays',
    body: `<?xml version="1.0"?><methodCall>${DATA_QUERY}${deepArray(1400)}</methodCall>`,
  },
  {
    label: '60 KiB, unknown method',
    body: `<?xml version="1.0"?><methodCall><methodName>x.y</methodName>${manyMembers(1000)}</methodCall>`,
  },
  {
    label: '60 KiB, no-login method',
    body: `<?xml version="1.0"?><methodCall><methodName>Monitoring.isActiveDirectoryEnabled</methodName>${manyMembers(1000)}</methodCall>`,
  },
  // Issue 29 item 2: a body declared 10 GiB to faces that answer without reading it (401, 404);
  // each connection sends until the server closes it.
  {
    label: '10 GiB declared, maintenance 401',
    body: 'a'.repeat(64 * KiB),
    path: `${MAINTENANCE_BASE_PATH}/commands`,
    declared: 10 * 1024 * MiB,
  },
  {
    label: '10 GiB declared, unknown path 404',
    body: 'a'.repeat(64 * KiB),
    path: '/no/such/path',
    declared: 10 * 1024 * MiB,
  },
];

async function checkmkMedian(host: string, port: number): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  const bytes = httpRequest('GET', '/checkmk', []);
  for (let i = 0; i < SAMPLES; i++) {
    const answer = await exchange({ host, port, bytes }, 10_000);
    if (answer.http?.status !== 200)
      throw new Error(`/checkmk answered ${answer.http?.status ?? answer.ending}`);
    times.push(answer.ms);
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(times), p95: sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN };
}

/**
 * The bare baseline: a plain `node:http` server in the same process as the simulator that drains
 * each body and answers 401, what any HTTP server on this event loop pays for the same senders.
 */
async function bareSink(): Promise<{ server: Server; host: string; port: number }> {
  const server = createServer((request, response) => {
    // A declared body above 64 KiB is refused at once and the connection closed, as the faces do.
    if (Number(request.headers['content-length'] ?? 0) > 64 * KiB) {
      response.writeHead(401, { connection: 'close', 'content-length': 0 });
      response.end();
      return;
    }
    request.resume();
    request.on('end', () => {
      response.writeHead(401, { connection: 'close' });
      response.end();
    });
    request.on('error', () => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, host: '127.0.0.1', port: (server.address() as AddressInfo).port };
}

/** `/checkmk` while four senders post `shape` to `target`, and how many requests they got answered. */
async function underSenders(
  target: { host: string; port: number },
  shape: Shape,
  checkmk: { host: string; port: number },
): Promise<{ median: number; p95: number; sent: number; bytes: number }> {
  const body = Buffer.from(shape.body);
  const workers = Array.from(
    { length: SENDERS },
    () =>
      new Worker(SENDER_CODE, {
        eval: true,
        workerData: {
          ...target,
          chunked: shape.chunked ?? false,
          path: shape.path ?? '/xml-rpc',
          declared: shape.declared ?? 0,
          body,
        },
      }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const loaded = await checkmkMedian(checkmk.host, checkmk.port);
  const counts = await Promise.all(
    workers.map(
      (w) =>
        new Promise<{ sent: number; bytes: number }>((resolve) => {
          w.once('message', resolve);
          w.postMessage('stop');
        }),
    ),
  );
  await Promise.all(workers.map((w) => w.terminate()));
  return {
    ...loaded,
    sent: counts.reduce((sum, count) => sum + count.sent, 0),
    bytes: counts.reduce((sum, count) => sum + count.bytes, 0),
  };
}

/**
 * Issue 12, defect 5 and issue 20, item 2: four parallel unauthenticated XML-RPC senders against
 * the PBX web server, one row per body shape (`SHAPES`), and the `/checkmk` answer time of the data
 * endpoint in the same process meanwhile (target: median within 2x of idle). Beside each, the same
 * senders against a bare HTTP server in the same process (`bareSink`): on a machine with fewer
 * cores than senders plus server, that row shows the floor no request handling can go below.
 * Measured, never asserted.
 */
export async function benchXmlRpcLoad(): Promise<void> {
  console.log('\n## XML-RPC and unread bodies under four unauthenticated senders (issue 12, 20, 29)');
  const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    const port = Number(/:(\d+)$/.exec(sim.urls.monitoring ?? '')?.[1]);
    const host = '127.0.0.1';
    const web = hostPort(sim.urls.web);
    const idle = await checkmkMedian(host, port);
    console.log(
      `/checkmk alone:                        median ${fmt(idle.median, 2)} ms, p95 ${fmt(idle.p95, 2)} ms`,
    );
    const bare = await bareSink();
    try {
      for (const shape of SHAPES) {
        const floor = await underSenders({ host: bare.host, port: bare.port }, shape, { host, port });
        const loaded = await underSenders(web, shape, { host, port });
        console.log(
          `/checkmk with ${SENDERS} x ${shape.label.padEnd(33)}: median ${fmt(loaded.median, 2)} ms (${fmt(loaded.median / idle.median, 1)}x idle), p95 ${fmt(loaded.p95, 2)} ms; ${loaded.sent} requests answered meanwhile, ${fmt(loaded.bytes / MiB, 0)} MiB sent`,
        );
        console.log(
          `  same senders to a bare HTTP server       : median ${fmt(floor.median, 2)} ms (${fmt(floor.median / idle.median, 1)}x idle), p95 ${fmt(floor.p95, 2)} ms; ${floor.sent} requests answered meanwhile, ${fmt(floor.bytes / MiB, 0)} MiB sent`,
        );
      }
    } finally {
      bare.server.closeAllConnections();
      await new Promise((resolve) => bare.server.close(resolve));
    }
    console.log('target: median within 2x of idle for every shape');
  } finally {
    await sim.close();
  }
}
