import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { XMLValidator } from 'fast-xml-parser';
import { splitCommandLine } from '../../src/certify/command-line.ts';
import { run } from '../../src/cli/run.ts';
import { PROJECT_ROOT } from '../../src/core/project-paths.ts';
import { dssePython, NO_PYTHON_CRYPTOGRAPHY } from '../interop/python-cryptography.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { NO_CHROMIUM, renderInChromium } from './render-svg.ts';
import { EXAMPLES, tempDir } from './support.ts';

/*
 * Issue 33, "Done when": the README's CI recipe for the example plug-in, its very lines, produces
 * a signed certificate and a badge; certificate verify accepts them with the plug-in file; the
 * independent verifier (Python's cryptography) agrees; the badge renders in a browser.
 */

const HEADING = "### In the plug-in's CI: a signed certificate and a badge";

/** The recipe's commands: the `# once:` key generation, then each line, continuations joined. */
async function recipe(): Promise<string[][]> {
  const readme = await readFile(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(HEADING));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(readme.includes(HEADING) && block, 'the README has the recipe');
  const commands: string[][] = [];
  for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
    const once = /^# once: (.*?)\s{2,}/.exec(line);
    const command = once ? once[1] : line.startsWith('#') ? '' : line.replace(/\s+#.*$/, '');
    if (command?.trim()) commands.push(splitCommandLine(command.trim()));
  }
  return commands;
}

/** openssl as the recipe calls it; where it is missing, node:crypto writes the same PEM files. */
function openssl(args: string[], cwd: string): void {
  const done = spawnSync('openssl', args, { cwd, encoding: 'utf8', timeout: 30_000 });
  if (done.status === 0) return;
  if ((done.error as NodeJS.ErrnoException | undefined)?.code !== 'ENOENT')
    throw new Error(`openssl ${args.join(' ')} failed: ${done.stderr}`);
  const option = (name: string) => join(cwd, args[args.indexOf(name) + 1] as string);
  if (args[0] === 'genpkey') {
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(option('-out'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  } else {
    const publicKey = createPublicKey(readFileSync(option('-in')));
    writeFileSync(option('-out'), publicKey.export({ type: 'spki', format: 'pem' }));
  }
}

test("the README's CI recipe makes a signed certificate and a badge that certificate verify accepts", async (t) => {
  const dir = await tempDir(t);
  await mkdir(join(dir, 'examples', 'plugins'), { recursive: true });
  for (const file of ['check_pbx_backups.py', 'check_pbx_backups.yaml'])
    await copyFile(join(EXAMPLES, file), join(dir, 'examples', 'plugins', file));
  const commands = await recipe();
  assert.deepEqual(
    commands.map((c) => c.slice(0, 3).join(' ')),
    [
      'openssl genpkey -algorithm',
      'openssl pkey -in',
      'npx pbx-conformance certify-plugin',
      'npx pbx-conformance certificate',
    ],
  );
  for (const command of commands) {
    if (command[0] === 'openssl') {
      openssl(command.slice(1), dir);
      continue;
    }
    assert.deepEqual(command.slice(0, 2), ['npx', 'pbx-conformance']);
    const io = captureIo(dir, { env: process.env });
    const code = await run(command.slice(2), io);
    assert.equal(code, 0, `${command.slice(2, 4).join(' ')}: ${io.out()}${io.err()}`);
    if (command[2] === 'certificate') assert.match(io.out(), /: holds\n/);
  }
  const certificate = join(dir, 'certified', 'check_pbx_backups.cert.json');
  const badge = await readFile(join(dir, 'certified', 'badge.svg'), 'utf8');
  assert.equal(XMLValidator.validate(badge), true, 'the badge is well-formed XML');

  await t.test('the independent verifier agrees', { skip: NO_PYTHON_CRYPTOGRAPHY }, async () => {
    const answer = await dssePython(['verify', certificate, join(dir, 'vendor-pub.pem')]);
    assert.equal(answer['verified'], true);
    const statement = answer['statement'] as { subject: { name: string }[]; predicate: { result: string } };
    assert.deepEqual(
      statement.subject.map((s) => s.name),
      ['check_pbx_backups.py'],
    );
    assert.equal(statement.predicate.result, 'passed');
  });

  await t.test(
    'the badge renders in a browser: grey label, coloured message, white text',
    { skip: NO_CHROMIUM },
    async () => {
      const width = Number(/<svg [^>]*width="(\d+)"/.exec(badge)?.[1]);
      const labelWidth = Number(/<rect width="(\d+)" height="20" fill="#555"\/>/.exec(badge)?.[1]);
      const colour =
        /<rect x="\d+" width="\d+" height="20" fill="#([0-9a-f]{3,6})"\/>/.exec(badge)?.[1] ?? '';
      assert.ok(width > labelWidth && labelWidth > 40, `${labelWidth} of ${width}`);
      const picture = await renderInChromium(join(dir, 'certified', 'badge.svg'), width + 40, 60);
      const near = (got: number[], want: number[], slack: number) =>
        got.every((v, i) => Math.abs(v - (want[i] ?? 0)) <= slack);
      const hex = (h: string) =>
        (h.length === 3 ? [...h].map((c) => c + c) : (h.match(/../g) ?? [])).map((c) =>
          Number.parseInt(c, 16),
        );
      // Top-left corner of each half, clear of the rounded corner and of the text.
      assert.ok(near(picture.rgb(4, 3), [0x55, 0x55, 0x55], 24), `label ${picture.rgb(4, 3)}`);
      assert.ok(
        near(picture.rgb(labelWidth + 3, 3), hex(colour), 24),
        `message ${picture.rgb(labelWidth + 3, 3)} vs #${colour}`,
      );
      assert.ok(near(picture.rgb(width + 10, 10), [255, 255, 255], 0), 'white page beyond the badge');
      const textPixels = (from: number, to: number) => {
        let bright = 0;
        for (let x = from; x < to; x += 1)
          for (let y = 5; y < 16; y += 1) if (picture.rgb(x, y).every((v) => v > 200)) bright += 1;
        return bright;
      };
      assert.ok(textPixels(5, labelWidth - 5) > 20, 'the label text is drawn');
      assert.ok(textPixels(labelWidth + 5, width - 5) > 10, 'the message text is drawn');
    },
  );
});
