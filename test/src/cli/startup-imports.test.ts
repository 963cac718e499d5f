/**
 * Issue 20, item 9: `--help` loads what it needs and nothing a command loads when it runs
 * (fast-check, the report renderers, Ajv, Cucumber, the simulators). How long that takes is
 * measured in `npm run bench -- startup`, beside a bare `node -e 0`; this test holds the cause.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../../../src/core/project-paths.ts';

const HOOKS = join(import.meta.dirname, 'fixtures', 'record-packages.mjs');
/** What tsx itself loads to run the TypeScript sources (absent from the compiled package). */
const TSX = new Set(['tsx', 'esbuild', 'get-tsconfig', 'resolve-pkg-maps']);

function packagesLoaded(args: string[]): Promise<{ code: number | null; packages: Set<string> }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    delete env['NODE_V8_COVERAGE'];
    const child = spawn(
      process.execPath,
      [
        '--no-warnings',
        '--loader',
        HOOKS,
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'src', 'cli', 'main.ts'),
        ...args,
      ],
      { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code,
        packages: new Set(
          [...stderr.matchAll(/^package (\S+)$/gm)]
            .map((m) => m[1] as string)
            .filter((name) => !TSX.has(name)),
        ),
      }),
    );
  });
}

test('--help of the CLI and of every command loads commander and nothing else', async () => {
  for (const command of [
    [],
    ['verify'],
    ['simulate'],
    ['fuzz'],
    ['resolver-check'],
    ['endpoint'],
    ['certify-plugin'],
  ]) {
    const { code, packages } = await packagesLoaded([...command, '--help']);
    assert.equal(code, 0, command.join(' '));
    assert.deepEqual([...packages].sort(), ['commander'], `${command.join(' ') || '(none)'} --help`);
  }
});
