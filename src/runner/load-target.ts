import { loadTargetFile, type TargetFile, TargetFileError } from '../core/target-file.ts';
import { readTargetName } from './read-target-name.ts';

/**
 * Reads a target description file and validates it fully, with the same strict validator the
 * steps use (src/core/target-file.ts), before any scenario runs: an invalid file is a
 * harness error, never a run of failed scenarios. Throws an Error whose one-line message names
 * the file and every schema problem, unknown keys with the nearest valid one.
 */
export async function loadTarget(file: string): Promise<TargetFile> {
  // Its messages for a missing, non-JSON or nameless file are the ones users already know.
  await readTargetName(file);
  try {
    return loadTargetFile(file);
  } catch (error) {
    if (error instanceof TargetFileError) throw new Error(error.message);
    throw error;
  }
}
