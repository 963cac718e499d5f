import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { isFamilyFolder, openMkp, pluginDirectory } from '../../../src/certify/mkp/plugin-package.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pbx-mkp-package-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A tar of regular files, built here with tar-stream: the loader meets a package it did not write. */
async function packTar(entries: { name: string; data: Buffer }[]): Promise<Buffer> {
  const archive = pack();
  const bytes = buffer(archive);
  for (const entry of entries)
    archive.entry({ name: entry.name, mode: 0o644, mtime: new Date(0) }, entry.data);
  archive.finalize();
  return bytes;
}

const MODULE = Buffer.from('from cmk.agent_based.v2 import Service\n');

async function mkp(
  name: string,
  options: { info?: unknown; members?: { name: string; data: Buffer }[]; gzip?: boolean } = {},
) {
  const files = { cmk_addons_plugins: ['demo/agent_based/demo.py'] };
  const info = options.info ?? { name: 'demo', version: '1.0.0', title: 'Demo', files };
  const members = options.members ?? [
    { name: 'info', data: Buffer.from("{'name': 'demo'}\n") },
    { name: 'info.json', data: Buffer.from(JSON.stringify(info)) },
    {
      name: 'cmk_addons_plugins.tar',
      data: await packTar([{ name: 'demo/agent_based/demo.py', data: MODULE }]),
    },
  ];
  const tar = await packTar(members);
  const path = join(dir, `${name}.mkp`);
  await writeFile(path, options.gzip === false ? tar : gzipSync(tar));
  return path;
}

async function problems(path: string): Promise<string[]> {
  const checked = await openMkp(path, path);
  if (checked.ok) {
    await checked.package.close();
    return [];
  }
  return checked.problems;
}

test('a minimal hand-made package is valid', async () => {
  assert.deepEqual(await problems(await mkp('minimal')), []);
});

test('not gzip-compressed, no info.json, a broken info.json: each is a problem', async () => {
  assert.match(
    (await problems(await mkp('plain', { gzip: false }))).join(),
    /not a gzip-compressed tar archive/,
  );
  const noJson = await mkp('no-json', {
    members: [{ name: 'info', data: Buffer.from('{}') }],
  });
  assert.match((await problems(noJson)).join(), /no member "info.json"/);
  const badJson = await mkp('bad-json', {
    members: [
      { name: 'info', data: Buffer.from('{}') },
      { name: 'info.json', data: Buffer.from('{') },
    ],
  });
  assert.match((await problems(badJson)).join(), /info\.json is not JSON/);
  assert.match(
    (await problems(await mkp('no-version', { info: { name: 'demo', files: {} } }))).join('\n'),
    /"version" is missing/,
  );
  assert.match(
    (await problems(await mkp('no-plugins', { info: { name: 'demo', version: '1', files: {} } }))).join('\n'),
    /no files in part "cmk_addons_plugins"/,
  );
});

test('the manifest must name exactly the files of each part', async () => {
  const extra = await mkp('extra', {
    members: [
      { name: 'info', data: Buffer.from('{}') },
      {
        name: 'info.json',
        data: Buffer.from(
          JSON.stringify({
            name: 'demo',
            version: '1',
            files: { cmk_addons_plugins: ['demo/agent_based/demo.py', 'demo/agent_based/gone.py'] },
          }),
        ),
      },
      {
        name: 'cmk_addons_plugins.tar',
        data: await packTar([
          { name: 'demo/agent_based/demo.py', data: MODULE },
          { name: 'demo/agent_based/hidden.py', data: MODULE },
        ]),
      },
      { name: 'agents.tar', data: await packTar([]) },
    ],
  });
  const found = await problems(extra);
  assert.ok(
    found.some((p) => /lacks files info.json lists: demo\/agent_based\/gone.py/.test(p)),
    found.join('; '),
  );
  assert.ok(
    found.some((p) => /holds files info.json does not list: demo\/agent_based\/hidden.py/.test(p)),
    found.join('; '),
  );
  assert.ok(
    found.some((p) => /member agents.tar is not a part info.json names/.test(p)),
    found.join('; '),
  );
  const missingPart = await mkp('missing-part', {
    members: [
      { name: 'info', data: Buffer.from('{}') },
      {
        name: 'info.json',
        data: Buffer.from(
          JSON.stringify({ name: 'demo', version: '1', files: { cmk_addons_plugins: ['a.py'] } }),
        ),
      },
    ],
  });
  assert.match((await problems(missingPart)).join(), /no member cmk_addons_plugins.tar/);
});

test('links and paths that leave the part are refused', async () => {
  const inner = pack();
  const bytes = buffer(inner);
  inner.entry({ name: 'demo/agent_based/demo.py', type: 'symlink', linkname: '/etc/passwd' });
  inner.entry({ name: '../escape.py' }, MODULE);
  inner.finalize();
  const path = await mkp('links', {
    members: [
      { name: 'info', data: Buffer.from('{}') },
      {
        name: 'info.json',
        data: Buffer.from(
          JSON.stringify({
            name: 'demo',
            version: '1',
            files: { cmk_addons_plugins: ['demo/agent_based/demo.py', '../escape.py'] },
          }),
        ),
      },
      { name: 'cmk_addons_plugins.tar', data: await bytes },
    ],
  });
  const found = (await problems(path)).join('\n');
  assert.match(found, /demo\/agent_based\/demo.py is a symlink, not a regular file/);
  assert.match(found, /unsafe path \.\.\/escape.py/);
});

test('--plugin-dir takes the cmk_addons_plugins folder or a folder holding it, not a single family', async () => {
  const source = join(dir, 'source');
  await mkdir(join(source, 'cmk_addons_plugins', 'demo', 'agent_based'), { recursive: true });
  assert.equal(pluginDirectory(source, 'source')?.pluginsDir, join(source, 'cmk_addons_plugins'));
  assert.equal(
    pluginDirectory(join(source, 'cmk_addons_plugins'), 'x')?.pluginsDir,
    join(source, 'cmk_addons_plugins'),
  );
  assert.equal(isFamilyFolder(join(source, 'cmk_addons_plugins', 'demo')), true);
  assert.equal(pluginDirectory(join(source, 'cmk_addons_plugins', 'demo'), 'x'), null);
});
