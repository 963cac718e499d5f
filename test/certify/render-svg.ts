import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';

/** Debian's Chromium, the browser the console's tests use too. */
export const CHROMIUM = process.env['PBX_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why a page cannot be rendered here, or false. Where CI installed Chromium (PBX_REQUIRE_CHROMIUM=1) never. */
export const NO_CHROMIUM: string | false =
  existsSync(CHROMIUM) || process.env['PBX_REQUIRE_CHROMIUM'] === '1'
    ? false
    : `Chromium is not installed at ${CHROMIUM} (apt-get install chromium)`;

/** A rendered picture: its size and the RGB of each pixel. */
export interface Picture {
  width: number;
  height: number;
  rgb(x: number, y: number): [number, number, number];
}

/**
 * Renders a file (an SVG document) in headless Chromium, as a browser opening it shows it, into a
 * `width` × `height` screenshot, and decodes the PNG.
 */
export async function renderInChromium(file: string, width: number, height: number): Promise<Picture> {
  const dir = await mkdtemp(join(tmpdir(), 'pbx-render-'));
  try {
    const png = join(dir, 'shot.png');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        CHROMIUM,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--hide-scrollbars',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          `--user-data-dir=${join(dir, 'profile')}`,
          `--window-size=${width},${height}`,
          `--screenshot=${png}`,
          pathToFileURL(file).href,
        ],
        { stdio: 'ignore', timeout: 60_000 },
      );
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`chromium exited ${code}`))));
    });
    return decodePng(await readFile(png));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium's screenshots are). */
export function decodePng(bytes: Buffer): Picture {
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    throw new Error('not a PNG');
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const chunk = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = chunk.readUInt32BE(0);
      height = chunk.readUInt32BE(4);
      const [depth, colour, , , interlace] = chunk.subarray(8, 13);
      channels = colour === 6 ? 4 : colour === 2 ? 3 : 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) throw new Error('unsupported PNG');
    } else if (type === 'IDAT') data.push(chunk);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i += 1) {
      const value = raw[y * (stride + 1) + 1 + i] ?? 0;
      const left = i >= channels ? (pixels[y * stride + i - channels] ?? 0) : 0;
      const up = y > 0 ? (pixels[(y - 1) * stride + i] ?? 0) : 0;
      const corner = y > 0 && i >= channels ? (pixels[(y - 1) * stride + i - channels] ?? 0) : 0;
      const predicted =
        filter === 1
          ? left
          : filter === 2
            ? up
            : filter === 3
              ? (left + up) >> 1
              : filter === 4
                ? paeth(left, up, corner)
                : 0;
      pixels[y * stride + i] = (value + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    rgb: (x, y) => {
      const at = y * stride + x * channels;
      return [pixels[at] ?? 0, pixels[at + 1] ?? 0, pixels[at + 2] ?? 0];
    },
  };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
