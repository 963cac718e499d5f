#!/usr/bin/env node
// The console's browser assets (issue 32): console/src bundled by esbuild into one script and one
// style sheet, beside the page that loads them. `npm run build` writes them to dist/console-assets/
// (shipped in the package); from a source checkout the control plane builds them in memory on the
// first request with the same function, so both serve the same bytes. No CDN: Preact is bundled.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const source = join(root, 'console', 'src');

/**
 * Builds the assets; returns them by file name (`index.html`, `console.js`, `console.css`) as
 * bytes. esbuild is a development dependency: an installed package never calls this.
 */
export async function buildConsole() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { console: join(source, 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: 'out',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    loader: { '.css': 'css' },
  });
  const files = new Map();
  for (const file of result.outputFiles)
    files.set(file.path.split(/[\\/]/).pop(), Buffer.from(file.contents));
  files.set('index.html', await readFile(join(source, 'index.html')));
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { gzipSync } = await import('node:zlib');
  const out = process.argv[2] ?? join(root, 'dist', 'console-assets');
  mkdirSync(out, { recursive: true });
  let gzipped = 0;
  for (const [name, bytes] of await buildConsole()) {
    writeFileSync(join(out, name), bytes);
    gzipped += gzipSync(bytes).length;
  }
  process.stderr.write(
    `build: console assets written to ${out} (${(gzipped / 1024).toFixed(1)} KiB gzipped)\n`,
  );
}
