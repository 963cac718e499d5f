/** Downloading the monitoring package (package.feature, MKP-DOWNLOAD). */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { Then, When } from '@cucumber/cucumber';
import { request } from 'undici';
import { unpackTar } from '../../simulators/pbx/index.ts';
import { xmlRpcAuthValue } from '../../src/clients/xmlrpc-auth-value.ts';
import { bytesAsEvidence } from '../support/evidence.ts';
import { monitoringTargetOptions } from '../support/monitoring-target-options.ts';
import { memoryKey } from '../support/scenario-memory.ts';
import { findJsonFields } from '../support/snapshot-values.ts';
import { type PbxWorld, READ_TIMEOUT_MS, redactAuth } from '../support/world.ts';

const PACKAGE_DOWNLOAD = memoryKey<Download>('packageDownload');

/** Download folder of module files on the PBX web server (MKP-DOWNLOAD). */
const DOWNLOAD_PREFIX = '/downloads/moduledata';
/** The module whose id is `<module_id>` when the target file does not name it (MKP-UNSPEC-PACKAGE). */
const MONITORING_MODULE = 'Monitoring';
/** A package is a few hundred KiB at most; anything far larger is not read to the end. */
const MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;
/** Bound on the unpacked archive, so a hostile target's gzip bomb cannot exhaust memory. */
const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

interface Download {
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The Monitoring module's id: `pbx.monitoringModuleId` of the target file when it has one, else
 * the `id` of the module named `Monitoring` in the JSON snapshot's module list (an extension of the
 * simulator, not a spec field); `undefined` when neither names it.
 */
async function monitoringModuleId(world: PbxWorld): Promise<string | undefined> {
  const configured = monitoringTargetOptions(world).monitoringModuleId;
  if (configured !== undefined) return configured;
  const reply = await world.httpRequest('GET', '/json');
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(reply.body.toString('utf8'));
  } catch {
    return undefined;
  }
  for (const list of findJsonFields(snapshot, 'modules')) {
    if (!Array.isArray(list)) continue;
    for (const module of list) {
      const { name, id } = (module ?? {}) as { name?: unknown; id?: unknown };
      if (name === MONITORING_MODULE && typeof id === 'string' && id !== '') return id;
    }
  }
  return undefined;
}

async function download(url: string, headers: Record<string, string>): Promise<Omit<Download, 'path'>> {
  const response = await request(url, {
    method: 'GET',
    headers,
    headersTimeout: READ_TIMEOUT_MS,
    bodyTimeout: READ_TIMEOUT_MS,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_DOWNLOAD_BYTES) {
      response.body.destroy();
      throw new Error(`the download is larger than ${MAX_DOWNLOAD_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
}

function lastDownload(world: PbxWorld): Download {
  const d = world.memory.get(PACKAGE_DOWNLOAD);
  assert.ok(d, 'no download yet: a When step must download the package first');
  return d;
}

When(
  "a client downloads the monitoring package from the Monitoring module's download folder",
  async function (this: PbxWorld) {
    const id = await monitoringModuleId(this);
    if (id === undefined) {
      return this.notVerifiable(
        `target "${this.target.name}" names no Monitoring module id: neither the target file's ` +
          '`pbx.monitoringModuleId` nor a module named "Monitoring" in the JSON snapshot',
      );
    }
    const { fileName, signIn, headers } = monitoringTargetOptions(this).monitoringPackage;
    const { authParam, login, password } = this.pbx.xmlrpc;
    const query = signIn === 'authParam' ? `?${authParam}=${xmlRpcAuthValue(login, password)}` : '';
    const path = `${DOWNLOAD_PREFIX}/${encodeURIComponent(id)}/${encodeURIComponent(fileName)}${query}`;
    const answer = await download(`${this.pbx.webUrl}${path}`, headers);
    this.memory.set(PACKAGE_DOWNLOAD, { path, ...answer } satisfies Download);
    const head = Object.entries(answer.headers)
      .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
      .join('\n');
    const sent = Object.keys(headers).map((name) => `${name}: <redacted>`);
    const shown = redactAuth(path, authParam);
    this.evidence({
      exchange: `HTTP GET ${shown}`,
      request: [`GET ${shown}`, ...sent].join('\n'),
      response: `${answer.status}\n${head}\n\n${bytesAsEvidence(answer.body.subarray(0, 256))}`,
      details: { bodyBytes: answer.body.length },
    });
    return undefined;
  },
);

Then('the download answers 200 with a non-empty body', function (this: PbxWorld) {
  const { status, path, body } = lastDownload(this);
  assert.equal(status, 200, `GET ${path.split('?')[0]} answered ${status}`);
  assert.ok(body.length > 0, `GET ${path.split('?')[0]} answered an empty body`);
});

/**
 * The container of a monitoring-tool extension package (`.mkp`): a gzip-compressed tar archive
 * holding at least one file. What it holds and its manifest are open (MKP-UNSPEC-PACKAGE).
 */
Then('the download is a gzip-compressed tar archive', async function (this: PbxWorld) {
  const { body } = lastDownload(this);
  assert.ok(
    body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b,
    'the body does not start with the gzip magic 1f 8b',
  );
  const entries = await unpackTar(gunzipSync(body, { maxOutputLength: MAX_UNPACKED_BYTES }));
  assert.ok(entries.length > 0, 'the tar archive holds no file');
  this.evidence({ exchange: 'package contents', details: { entries: entries.map((e) => e.name) } });
});
