import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';
import { descriptorsNeeded, FDS_PER_SHARD_PBX, openFileShortfall } from '../../simulators/fleet/index.ts';

const DEPLOY = new URL('../../deploy/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DEPLOY), 'utf8');
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'batch/v1 Job': Job,
  'v1 Service': Service,
  'v1 Secret': Secret,
};

type Doc = {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are read as plain JSON, checked by the models
  spec?: Record<string, any>;
  [key: string]: unknown;
};
const docs = (name: string): Doc[] => parseAllDocuments(read(name)).map((d) => d.toJSON() as Doc);

test('every manifest in deploy/ is valid against the Kubernetes schemas (kubernetes-models), and kustomization lists them all', () => {
  const manifests = readdirSync(DEPLOY).filter(
    (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml',
  );
  assert.deepEqual(manifests.sort(), ['controller.yaml', 'secret.yaml', 'shards.yaml']);
  const kinds: string[] = [];
  for (const name of manifests) {
    for (const doc of docs(name)) {
      const key = `${doc.apiVersion} ${doc.kind}`;
      const Model = MODELS[key];
      assert.ok(Model, `${name}: ${key} has a model`);
      assert.doesNotThrow(
        () => new Model(doc as never).validate(),
        `${name}: ${key} ${doc.metadata.name} is valid`,
      );
      kinds.push(key);
    }
  }
  assert.deepEqual(kinds.sort(), ['apps/v1 Deployment', 'batch/v1 Job', 'v1 Secret', 'v1 Service']);
  const kustomization = parse(read('kustomization.yaml')) as { resources: string[] };
  assert.deepEqual([...kustomization.resources].sort(), manifests.sort());
});

test('a broken manifest fails the schema check, so the check above can fail', () => {
  const [deployment] = docs('controller.yaml');
  const broken = structuredClone(deployment!) as Doc;
  broken.spec!['replicas'] = 'one';
  assert.throws(() => new Deployment(broken as never).validate());
});

test('the shards reach the controller through its Service, take their index from the Indexed Job and share its secret', () => {
  const [deployment, service] = docs('controller.yaml');
  const [job] = docs('shards.yaml');
  const [secret] = docs('secret.yaml');
  const controller = deployment!.spec!['template'].spec.containers[0];
  const shard = job!.spec!['template'].spec.containers[0];
  const arg = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  assert.ok(controller.args.includes('--fleet-only'));
  assert.equal(job!.spec!['completionMode'], 'Indexed');
  assert.equal(
    arg(shard.args, 'shard'),
    String(job!.spec!['completions']),
    '--shard N takes i from JOB_COMPLETION_INDEX',
  );
  assert.equal(arg(shard.args, 'pbx-count'), arg(controller.args, 'pbx-count'), 'one fleet size');
  const ingest = service!.spec!['ports'].find((p: { name: string }) => p.name === 'ingest');
  assert.equal(arg(shard.args, 'controller'), `tcp://${service!.metadata.name}:${ingest.port}`);
  assert.equal(
    arg(controller.args, 'ingest-port'),
    String(controller.ports.find((p: { name: string }) => p.name === 'ingest').containerPort),
  );
  for (const container of [controller, shard]) {
    const env = container.env.find((e: { name: string }) => e.name === 'PBX_CONFORMANCE_FLEET_SECRET');
    assert.equal(env.valueFrom.secretKeyRef.name, secret!.metadata.name);
    assert.ok(Object.hasOwn(secret!['stringData'] as object, env.valueFrom.secretKeyRef.key));
  }
});

test('the container build file installs the tarball npm pack makes of this checkout, never the registry (issue 29, item 7)', () => {
  const containerfile = read('Containerfile');
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
    files: string[];
  };
  const version = pkg.version.replaceAll('.', '\\.');
  assert.match(containerfile, new RegExp(`ARG PBX_CONFORMANCE_VERSION=${version}\\n`));
  // npm pack names its tarball <name>-<version>.tgz; the build context is deploy/.
  assert.match(
    containerfile,
    /^COPY pbx-conformance-\$\{PBX_CONFORMANCE_VERSION\}\.tgz \/tmp\/pbx-conformance\.tgz$/m,
  );
  assert.match(containerfile, /npm install --global .* \/tmp\/pbx-conformance\.tgz/);
  assert.doesNotMatch(containerfile, /pbx-conformance@/, 'nothing from the registry');
  assert.match(containerfile, /ENTRYPOINT \["pbx-conformance"\]/);
  for (const name of ['controller.yaml', 'shards.yaml'])
    assert.match(read(name), new RegExp(`image: pbx-conformance:${version}`));
  // The two commands, the same in the file and in the README, which says deploy/ is not in the package.
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  for (const command of [
    'npm pack --pack-destination deploy/',
    `build -t pbx-conformance:${pkg.version} -f deploy/Containerfile deploy/`,
  ]) {
    assert.ok(containerfile.includes(command), `Containerfile: ${command}`);
    assert.ok(readme.includes(command), `README: ${command}`);
  }
  assert.match(readme, /`deploy\/` is in the source repository only, not in the npm package/);
  assert.ok(!pkg.files.some((entry) => entry.startsWith('deploy')), 'deploy/ is not packed');
});

test('each shard pod says the open files it needs, and the docs show the line a pod prints when its limit is short (issue 29, item 8)', () => {
  const [job] = docs('shards.yaml');
  const template = job!.spec!['template'];
  const shard = template.spec.containers[0];
  const arg = (name: string) => shard.args.find((a: string) => a.startsWith(`--${name}=`))?.split('=')[1];
  const pbxCount = Number(arg('pbx-count'));
  const shards = Number(arg('shard'));
  const perShard = Math.ceil(pbxCount / shards);
  const need = descriptorsNeeded(perShard, FDS_PER_SHARD_PBX);
  assert.equal(template.metadata.annotations['pbx-conformance/nofile'], String(need));
  assert.match(read('shards.yaml'), new RegExp(`holds 2 per PBX plus 256, ${need.toLocaleString('en')}`));
  // What a pod of this Job prints under a hard limit of 16,384, word for word in the docs.
  const line = openFileShortfall(perShard, { soft: 1_024, hard: 16_384 }, FDS_PER_SHARD_PBX, 'PBXs', {
    index: 1,
    total: shards,
    pbxCount,
  });
  assert.match(line ?? '', /or run more, smaller shards: --shard i\/13 or more for --pbx-count 100000/);
  const fleetDoc = readFileSync(new URL('../../docs/fleet-controller.md', import.meta.url), 'utf8');
  assert.ok(fleetDoc.includes(`\npbx-conformance: ${line}\n`), 'docs/fleet-controller.md shows the line');
  assert.equal(openFileShortfall(perShard, { soft: need, hard: need }, FDS_PER_SHARD_PBX), null);
});
