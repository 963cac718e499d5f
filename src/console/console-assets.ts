import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The console's browser assets by file name (`index.html`, `console.js`, `console.css`). */
export type ConsoleAssets = ReadonlyMap<string, Buffer>;

/**
 * Where `npm run build` puts the bundled assets: `dist/console-assets/` beside `dist/src/`, so
 * from the compiled `dist/src/console/console-assets.js` it is `../../console-assets/`.
 */
const BUILT = new URL('../../console-assets/', import.meta.url);
/** The bundler script of a source checkout (absent from the package). */
const BUILD_SCRIPT = new URL('../../scripts/build-console.mjs', import.meta.url);

let loading: Promise<ConsoleAssets> | undefined;

/**
 * The console's assets (issue 32): in the installed package, the files esbuild wrote at pack
 * time; in a source checkout, built once in memory by the same bundler script. Neither fetches
 * anything from the network.
 */
export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<ConsoleAssets> {
  const dir = fileURLToPath(BUILT);
  if (existsSync(`${dir}/index.html`)) {
    const files = new Map<string, Buffer>();
    for (const name of await readdir(dir)) files.set(name, await readFile(`${dir}/${name}`));
    return files;
  }
  if (!existsSync(fileURLToPath(BUILD_SCRIPT)))
    throw new Error('the console assets are missing from this installation (run npm run build)');
  const script: { buildConsole(): Promise<Map<string, Buffer>> } = await import(BUILD_SCRIPT.href);
  return script.buildConsole();
}
