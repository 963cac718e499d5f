import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { run } from '../../src/cli/run.ts';
import { PACKAGE_ROOT } from '../../src/core/project-paths.ts';
import { captureIo } from '../src/cli/capture-io.ts';
import { docSnippets, helpLists, shellWords, snippetOptions, snippetsOf } from './doc-snippets.ts';

/** `pbx-conformance <words> --help`, in process: exit code and text. */
async function help(words: readonly string[]): Promise<{ code: number; text: string }> {
  const io = captureIo(tmpdir());
  const code = await run([...words, '--help'], io);
  return { code, text: io.out() + io.err() };
}

/** The command a snippet runs: the longest leading words whose --help names exactly them. */
async function commandOf(words: readonly string[]): Promise<{ path: string[]; help: string } | undefined> {
  const leading = words
    .slice(0, 2)
    .filter((word, i) => !word.startsWith('-') && (i === 0 || !words[0]?.startsWith('-')));
  for (let n = leading.length; n >= 1; n--) {
    const path = leading.slice(0, n);
    const shown = await help(path);
    if (shown.code === 0 && shown.text.startsWith(`Usage: pbx-conformance ${path.join(' ')} `))
      return { path, help: shown.text };
  }
  return undefined;
}

test('the snippet rule: sh blocks only, continuation lines joined, a second npx in a line is its own snippet', () => {
  const markdown = [
    '```sh',
    'npx pbx-conformance verify --target t.json  # comment --not-an-option',
    'npx pbx-conformance simulate --json -- \\',
    '  npx pbx-conformance verify --tags "@A or @B" > out.txt',
    'npm test',
    '```',
    '```',
    'npx pbx-conformance in-a-plain-block',
    '```',
  ].join('\n');
  assert.deepEqual(
    snippetsOf(markdown, 'x.md').map((s) => [s.line, s.words, s.fromRepository]),
    [
      [2, ['verify', '--target', 't.json'], false],
      [3, ['simulate', '--json', '--'], false],
      [3, ['verify', '--tags', '@A or @B'], false],
    ],
  );
  const recipe = snippetsOf('Run from this repository:\n\n```sh\nnpx pbx-conformance verify\n```\n', 'y.md');
  assert.equal(recipe[0]?.fromRepository, true);
  assert.deepEqual(shellWords('a \'b c\' d="e f" | g'), ['a', 'b c', 'd=e f']);
  assert.deepEqual(snippetOptions(['x', '--a=1', '--b', 'v', '--', '--c']), ['--a', '--b']);
  assert.ok(helpLists('  --pbx-count <n>  PBXs', '--pbx-count'));
  assert.ok(!helpLists('  --pbx-count <n>  PBXs', '--pbx'));
});

test('every npx pbx-conformance snippet of the README and the docs names a command and options that exist (issue 29, item 11)', async () => {
  const snippets = docSnippets(PACKAGE_ROOT);
  assert.ok(snippets.length > 40, `${snippets.length} snippets`);
  const problems: string[] = [];
  for (const snippet of snippets) {
    const where = `${snippet.file}:${snippet.line} pbx-conformance ${snippet.words.join(' ')}`;
    if (snippet.words[0] === '--version' || snippet.words[0] === '--help') continue;
    const command = await commandOf(snippet.words);
    if (!command) {
      problems.push(`${where}: no such command`);
      continue;
    }
    for (const option of snippetOptions(snippet.words.slice(command.path.length)))
      if (!helpLists(command.help, option))
        problems.push(`${where}: ${command.path.join(' ')} has no ${option}`);
  }
  assert.deepEqual(problems, []);
});

test('the check above can fail: an unknown command and an unknown option are found', async () => {
  assert.equal(await commandOf(['certifcate-plugin', '--mkp', 'x.mkp']), undefined);
  const command = await commandOf(['record', 'diff', 'a.json']);
  assert.deepEqual(command?.path, ['record', 'diff']);
  assert.ok(!helpLists(command?.help ?? '', '--out'));
});

test('snippets name shipped files the way a user reaches them: node_modules/pbx-conformance/…, never examples/… of the current folder', () => {
  const problems: string[] = [];
  for (const snippet of docSnippets(PACKAGE_ROOT)) {
    if (snippet.fromRepository) continue;
    for (const word of snippet.words) {
      const where = `${snippet.file}:${snippet.line}: ${word}`;
      if (/^(\.\/)?(examples|schemas)\//.test(word))
        problems.push(
          `${where}: a user's project has no such folder; write node_modules/pbx-conformance/${word}`,
        );
      const shipped = /^node_modules\/pbx-conformance\/(.*)$/.exec(word)?.[1];
      if (shipped !== undefined && !existsSync(join(PACKAGE_ROOT, shipped.replace(/^dist\//, ''))))
        problems.push(`${where}: not in the package`);
    }
  }
  assert.deepEqual(problems, []);
});

test("the example YAMLs' $schema points at the schema where the installed package has it (dist/schemas/)", () => {
  const examples = join(PACKAGE_ROOT, 'examples');
  const yamls = readdirSync(examples, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.yaml'),
  );
  assert.ok(yamls.length >= 4);
  for (const file of yamls) {
    const schema = /^\$schema: (\S+)$/m.exec(readFileSync(join(examples, file), 'utf8'))?.[1];
    assert.ok(schema, `${file} names its schema`);
    // In the package, examples/ sits beside dist/, and the build copies schemas/ to dist/schemas/.
    const inPackage = relative(PACKAGE_ROOT, resolve(dirname(join(examples, file)), schema));
    assert.match(inPackage, /^dist\/schemas\/[a-z-]+\.schema\.json$/, file);
    assert.ok(existsSync(join(PACKAGE_ROOT, inPackage.replace(/^dist\//, ''))), `${file}: ${inPackage}`);
  }
});

test('the README option table gives --pbx-count the range the CLI takes', async () => {
  const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith('| `--pbx-count <n>`'));
  assert.match(row ?? '', /\(1–100,000\)/);
  // Through the CLI's door: the option is parsed (and refused) before --help is shown.
  assert.equal((await help(['simulate', '--pbx-count', '100000'])).code, 0);
  for (const beyond of ['100001', '0'])
    assert.match((await help(['simulate', '--pbx-count', beyond])).text, /expected 1 to 100000 PBXs/, beyond);
});
