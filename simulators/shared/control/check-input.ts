import type { z } from 'zod';
import { describeValue } from '../http/control-input.ts';
import { ControlInputError } from '../http/control-input-error.ts';

/** `users[0].login` for the path `['users', 0, 'login']`; `the request body` for the root. */
function fieldName(path: readonly PropertyKey[]): string {
  let name = '';
  for (const part of path)
    name += typeof part === 'number' ? `[${part}]` : `${name ? '.' : ''}${String(part)}`;
  return name || 'the request body';
}

/**
 * Checks an operation's input against its declared schema and returns the parsed value, or throws
 * a `ControlInputError` with one line naming the first field at fault and what it received. The
 * HTTP server and the in-process client both go through here, so they refuse alike.
 */
export function checkInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  // A typo'd field name is the likelier mistake than the missing field it leaves behind.
  const issues = result.error.issues;
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) throw new ControlInputError('the input is invalid');
  const field = fieldName(issue.path);
  if (issue.code === 'unrecognized_keys') {
    throw new ControlInputError(`${field} has an unknown field ${JSON.stringify(issue.keys[0])}`);
  }
  const got = 'input' in issue ? `, got ${describeValue(issue.input)}` : '';
  throw new ControlInputError(`${field} ${issue.message}${got}`);
}
