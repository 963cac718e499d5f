import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { Secret, Service } from 'kubernetes-models/v1';
import { parse, parseAllDocuments } from 'yaml';

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

test('the container build file runs the published package of this version', () => {
  const containerfile = read('Containerfile');
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  assert.match(containerfile, new RegExp(`ARG PBX_CONFORMANCE_VERSION=${version.replaceAll('.', '\\.')}\\n`));
  assert.match(containerfile, /npm install --global .*"pbx-conformance@\$\{PBX_CONFORMANCE_VERSION\}"/);
  assert.match(containerfile, /ENTRYPOINT \["pbx-conformance"\]/);
  for (const name of ['controller.yaml', 'shards.yaml'])
    assert.match(read(name), new RegExp(`image: pbx-conformance:${version.replaceAll('.', '\\.')}`));
});
