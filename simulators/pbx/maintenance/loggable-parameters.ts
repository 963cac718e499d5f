import type { CommandParameters } from './command-parameters.ts';

/** Longest parameter text put into the module log; longer values are cut (MAINT-UNSPEC-MODULE-LOG). */
export const MAX_LOGGED_VALUE_CHARS = 200;

function cut(text: string): string {
  return text.length > MAX_LOGGED_VALUE_CHARS ? `${text.slice(0, MAX_LOGGED_VALUE_CHARS - 1)}…` : text;
}

/**
 * The parameters of a command as its module-log entry shows them: strings, numbers and booleans
 * as sent (long strings cut), values of other JSON types as cut JSON text, so a 1 MiB parameter
 * never lands in the bounded log whole. Only the command's known parameters ever get here; the
 * `Authorization` header never does.
 */
export function loggableParameters(parameters: CommandParameters): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (typeof value === 'string') shown[name] = cut(value);
    else if (typeof value === 'number' || typeof value === 'boolean') shown[name] = value;
    else shown[name] = cut(JSON.stringify(value) ?? String(value));
  }
  return shown;
}
