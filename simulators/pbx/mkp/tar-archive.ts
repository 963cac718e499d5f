import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { extract, pack } from 'tar-stream';

/** One regular file of an archive. */
export interface TarEntry {
  /** Path inside the archive, `/`-separated. */
  name: string;
  data: Buffer;
  /** Permission bits; default 0o644. */
  mode?: number;
  /** Modification time; default the epoch, so builds are reproducible. */
  mtime?: Date;
}

/** Packs regular files, in order, into a POSIX tar archive (`tar-stream`). */
export async function packTar(entries: readonly TarEntry[]): Promise<Buffer> {
  const archive = pack();
  const bytes = buffer(archive);
  for (const entry of entries) {
    archive.entry(
      { name: entry.name, mode: entry.mode ?? 0o644, mtime: entry.mtime ?? new Date(0) },
      entry.data,
    );
  }
  archive.finalize();
  return bytes;
}

/** The regular files of a tar archive, in archive order; a damaged archive rejects. */
export async function unpackTar(archive: Buffer): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const reader = extract();
  for await (const entry of Readable.from([archive]).pipe(reader)) {
    const data = await buffer(entry);
    if (entry.header.type === 'file')
      entries.push({ name: entry.header.name, data, mode: entry.header.mode ?? 0o644 });
  }
  return entries;
}
