import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { importRecording } from './import-recording.ts';
import { importedState, loadRecording, scenarioNameOf } from './load-recording.ts';

/** Where a command writes: stdout, stderr and the working folder. */
export interface RecordIo {
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/**
 * `record import FILE --out scenario.json`: the recording's first sample as a scenario file
 * (schemas/pbx-scenario.schema.json), checked by loading it the way `simulate --scenario` does.
 * Exit 0, or 2 with one line.
 */
export async function importCommand(
  file: string,
  options: { out: string; name?: string },
  io: RecordIo,
): Promise<number> {
  try {
    const recording = loadRecording(resolve(io.cwd, file));
    const out = resolve(io.cwd, options.out);
    const folder = await stat(dirname(out)).catch(() => null);
    if (!folder?.isDirectory()) throw new Error(`${dirname(out)} is not an existing folder`);
    const scenario = importRecording(recording, { name: options.name ?? scenarioNameOf(options.out) });
    importedState(scenario, Date.now());
    await writeFile(out, `${JSON.stringify(scenario, null, 2)}\n`);
    io.stdout.write(`scenario: ${out}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(
      `pbx-conformance: record import: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}\n`,
    );
    return 2;
  }
}
