import { readFile } from 'node:fs/promises';

/** The target name when no target file is given: the embedded simulator. */
export const EMBEDDED_TARGET_NAME = 'embedded';

/**
 * Reads only the `name` of a target description file; `loadTarget` (load-target.ts) then validates the whole
 * file against schemas/target.schema.json. Throws an Error with a one-line message when the file is missing,
 * unreadable, not JSON or has no name.
 */
export async function readTargetName(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `target file ${file} does not exist`
        : `cannot read target file ${file} (${code ?? 'error'})`,
    );
  }
  let data: unknown;
  try {
    // A UTF-8 byte order mark, as some editors save, is not part of the JSON (issue 20, item 22).
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error(`target file ${file} is not valid JSON`);
  }
  const name =
    typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['name'] : undefined;
  if (name === undefined) throw new Error(`target file ${file} has no \`name\``);
  if (typeof name !== 'string')
    throw new Error(`target file ${file}: \`name\` must be a string, got ${describeJson(name)}`);
  if (name.length === 0) throw new Error(`target file ${file}: \`name\` is empty`);
  return name;
}

/** `the number 5`, `null`, `an array`: what a value is, for a one-line reason. */
function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}
