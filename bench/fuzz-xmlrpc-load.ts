import { Worker } from 'node:worker_threads';
import { start } from '../simulators/pbx/index.ts';
import { exchange, hostPort, httpRequest } from '../src/fuzz/wire.ts';
import { median } from './http-load.ts';
import { fmt } from './load.ts';

const SAMPLES = Number(process.env.BENCH_XMLRPC_SAMPLES ?? 200);
const SENDERS = 4;
const MiB = 1024 * 1024;

/**
 * The senders, on another thread: each loops POST /xml-rpc without credentials carrying a 1 MiB
 * method call, either with a declared Content-Length or chunked (the server must count it).
 */
const SENDER_CODE = `
const { connect } = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const { host, port, chunked, path } = workerData;
const body = Buffer.concat([
  Buffer.from('<?xml version="1.0"?><methodCall><methodName>Monitoring.GetMonitoringData</methodName><params><param><value><string>'),
  Buffer.alloc(${MiB - 4096}, 0x61),
  Buffer.from('</string></value></param></params></methodCall>'),
]);
const head = chunked
  ? 'POST ' + path + ' HTTP/1.1\\r\\nHost: b\\r\\nContent-Type: text/xml\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n'
  : 'POST ' + path + ' HTTP/1.1\\r\\nHost: b\\r\\nContent-Type: text/xml\\r\\nContent-Length: ' + body.length + '\\r\\n\\r\\n';
const payload = chunked
  ? Buffer.concat([Buffer.from(head), Buffer.from(body.length.toString(16) + '\\r\\n'), body, Buffer.from('\\r\\n0\\r\\n\\r\\n')])
  : Buffer.concat([Buffer.from(head), body]);
let stop = false, sent = 0;
parentPort.on('message', () => { stop = true; });
function one() {
  if (stop) { parentPort.postMessage(sent); return; }
  const socket = connect({ host, port }, () => socket.end(payload));
  socket.on('data', () => {});
  socket.on('error', () => {});
  socket.on('close', () => { sent++; setImmediate(one); });
}
one();
`;

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
 * Issue 12, defect 5: four parallel unauthenticated 1 MiB XML-RPC senders against the PBX web
 * server (bodies just under 1 MiB, the old limit, so the old code parsed them), and the `/checkmk` answer time of the data endpoint on the same process meanwhile
 * (target: median under 20 ms; it was 425 ms before the 64 KiB limit and the credential check
 * ahead of the parse). Measured, never asserted.
 */
export async function benchXmlRpcLoad(): Promise<void> {
  console.log('\n## XML-RPC under unauthenticated 1 MiB senders (issue 12)');
  const sim = await start({ monitoringPort: 0, clock: { mode: 'frozen' } });
  try {
    const { host, port } = /^tcp:\/\/(.+):(\d+)$/.exec(sim.urls.monitoring ?? '')
      ? { host: '127.0.0.1', port: Number(/:(\d+)$/.exec(sim.urls.monitoring ?? '')?.[1]) }
      : { host: '', port: 0 };
    const web = hostPort(sim.urls.web);
    const idle = await checkmkMedian(host, port);
    console.log(
      `/checkmk alone:                       median ${fmt(idle.median, 2)} ms, p95 ${fmt(idle.p95, 2)} ms`,
    );
    for (const chunked of [false, true]) {
      const workers = Array.from(
        { length: SENDERS },
        () => new Worker(SENDER_CODE, { eval: true, workerData: { ...web, chunked, path: '/xml-rpc' } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const loaded = await checkmkMedian(host, port);
      const sent = await Promise.all(
        workers.map(
          (w) =>
            new Promise<number>((resolve) => {
              w.once('message', (n: number) => resolve(n));
              w.postMessage('stop');
            }),
        ),
      );
      await Promise.all(workers.map((w) => w.terminate()));
      const label = chunked ? 'chunked' : 'Content-Length';
      console.log(
        `/checkmk with ${SENDERS} x 1 MiB (${label.padEnd(14)}): median ${fmt(loaded.median, 2)} ms, p95 ${fmt(loaded.p95, 2)} ms (${sent.reduce((a, b) => a + b, 0)} XML-RPC requests answered meanwhile; target median < 20 ms)`,
      );
    }
  } finally {
    await sim.close();
  }
}
