import { loadTargetFile, type TargetFile, TargetFileError } from '../../steps/support/target-file.ts';
import { readTargetName } from './read-target-name.ts';

/**
 * Reads a target description file and validates it fully, with the same validator the steps use
 * (steps/support/target-file.ts), before any scenario runs: an invalid file is a harness error,
 * never a run of failed scenarios. Throws an Error whose one-line message names the file and the
 * first schema problem only (ajv lists every problem; the first is the one to fix).
 */
export async function loadTarget(file: string): Promise<TargetFile> {
  // Its messages for a missing, non-JSON or nameless file are the ones users already know.
  await readTargetName(file);
  try {
    return loadTargetFile(file);
  } catch (error) {
    if (error instanceof TargetFileError) throw new Error(firstProblem(error.message));
    throw error;
  }
}

/** `…: /pbx must have required property 'webUrl'; /pbx must …` → the text up to the first `; `. */
function firstProblem(message: string): string {
  const problems = message.split('; ');
  const more = problems.length - 1;
  return more > 0 ? `${problems[0]} (and ${more} more)` : (problems[0] ?? message);
}
