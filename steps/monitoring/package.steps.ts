/** Downloading the monitoring package (package.feature, MKP-DOWNLOAD). */
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { Then, When } from '@cucumber/cucumber';
import { request } from 'undici';
import { type TarEntry, unpackTar } from '../../simulators/pbx/mkp/tar-archive.ts';
import { bytesAsEvidence } from '../support/evidence.ts';
import { findJsonFields } from '../support/snapshot-values.ts';
import { loadTargetFile } from '../support/target-file.ts';
import { type PbxWorld, READ_TIMEOUT_MS } from '../support/world.ts';

/** Download folder of module files on the PBX web server (MKP-DOWNLOAD). */
const DOWNLOAD_PREFIX = '/downloads/moduledata';
/** The module whose id is `<module_id>` (MKP-UNSPEC-PACKAGE). */
const MONITORING_MODULE = 'Monitoring';
/** A package is a few hundred KiB at most; anything far larger is not read to the end. */
const MAX_DOWNLOAD_BYTES = 32 * 1024 * 1024;
const MAX_UNPACKED_BYTES = 128 * 1024 * 1024;

interface Download {
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * The Monitoring module's id: `pbx.monitoringModuleId` of the target file when it has one, else
 * the `id` of the module named `Monitoring` in the JSON snapshot's module list; `undefined` when
 * neither names it. (The optional field needs schemas/target.schema.json to allow it: its `pbx`
 * object forbids unknown members today, so until then the JSON snapshot is the source.)
 */
async function monitoringModuleId(world: PbxWorld): Promise<string | undefined> {
  const file = world.parameters.targetFile;
  if (file !== undefined) {
    const configured = (loadTargetFile(file).pbx as { monitoringModuleId?: unknown }).monitoringModuleId;
    if (typeof configured === 'string' && configured !== '') return configured;
  }
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

async function download(url: string): Promise<Omit<Download, 'path'>> {
  const response = await request(url, {
    method: 'GET',
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
  const d = world.memory.get('packageDownload') as Download | undefined;
  assert.ok(d, 'no download yet: a When step must download the package first');
  return d;
}

function unpacked(world: PbxWorld): Buffer {
  const { body } = lastDownload(world);
  assert.ok(
    body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b,
    'the body does not start with the gzip magic 1f 8b',
  );
  return gunzipSync(body, { maxOutputLength: MAX_UNPACKED_BYTES });
}

When(
  "a client downloads {string} from the Monitoring module's download folder",
  async function (this: PbxWorld, file: string) {
    const id = await monitoringModuleId(this);
    if (id === undefined) {
      return this.notVerifiable(
        `target "${this.target.name}" names no Monitoring module id: neither the target file's ` +
          '`pbx.monitoringModuleId` nor a module named "Monitoring" in the JSON snapshot',
      );
    }
    const path = `${DOWNLOAD_PREFIX}/${encodeURIComponent(id)}/${encodeURIComponent(file)}`;
    const answer = await download(`${this.pbx.webUrl}${path}`);
    this.memory.set('packageDownload', { path, ...answer } satisfies Download);
    const head = Object.entries(answer.headers)
      .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
      .join('\n');
    this.evidence({
      exchange: `HTTP GET ${path}`,
      request: `GET ${path} (no credentials)`,
      response: `${answer.status}\n${head}\n\n${bytesAsEvidence(answer.body.subarray(0, 256))}`,
      details: { bodyBytes: answer.body.length },
    });
    return undefined;
  },
);

Then('the download succeeds', function (this: PbxWorld) {
  const { status, path } = lastDownload(this);
  assert.equal(status, 200, `GET ${path} answered ${status}`);
});

Then('the download is a gzip-compressed tar archive', async function (this: PbxWorld) {
  const entries = await unpackTar(unpacked(this));
  assert.ok(entries.length > 0, 'the tar archive holds no file');
  this.memory.set('packageEntries', entries);
  this.evidence({ exchange: 'package contents', details: { entries: entries.map((e) => e.name) } });
});

Then('the archive holds the package manifests {names}', async function (this: PbxWorld, names: string[]) {
  const entries =
    (this.memory.get('packageEntries') as TarEntry[] | undefined) ?? (await unpackTar(unpacked(this)));
  const present = new Set(entries.map((e) => e.name.replace(/^\.\//, '')));
  const missing = names.filter((name) => !present.has(name));
  assert.deepEqual(
    missing,
    [],
    `the archive lacks ${missing.join(', ')}; it holds ${[...present].join(', ')}`,
  );
});
