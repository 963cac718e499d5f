import type { ApiExchange } from './api-exchange.ts';

/** The answers interface A may give (maintenance-and-fleet-api.md, "Errors / Interface A"). */
export type AnswerKind =
  | 'command-list'
  | 'accepted'
  | 'invalid-token'
  | 'unknown-endpoint'
  | 'unknown-command'
  | 'body-too-large'
  | 'command-failed';

const ERROR_MESSAGES: Record<string, AnswerKind> = {
  'invalid or missing API token': 'invalid-token',
  'unknown endpoint': 'unknown-endpoint',
  'unknown command': 'unknown-command',
  'command failed': 'command-failed',
};

const STATUS_OF: Record<AnswerKind, number> = {
  'command-list': 200,
  accepted: 200,
  'invalid-token': 401,
  'unknown-endpoint': 404,
  'unknown-command': 404,
  'body-too-large': 413,
  'command-failed': 500,
};

/** Which row of the error table an answer is, or a description of why it is none. */
export function classifyAnswer(exchange: ApiExchange): AnswerKind | { none: string } {
  if (!exchange.response) return { none: `no answer (${exchange.error})` };
  const { status, json } = exchange;
  const body = json as Record<string, unknown> | undefined;
  let kind: AnswerKind | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    if (Array.isArray(body['commands'])) kind = 'command-list';
    else if (body['status'] === 'ok') kind = 'accepted';
    else if (body['status'] === 'error' && typeof body['message'] === 'string')
      kind = ERROR_MESSAGES[body['message']];
    else if (body['ok'] === false && body['error'] === 'body-too-large') kind = 'body-too-large';
  }
  if (kind === undefined || STATUS_OF[kind] !== status)
    return { none: `${status} ${exchange.text.slice(0, 200)}` };
  return kind;
}

/** What a generated request is, as far as the error table cares. */
export interface RequestConditions {
  /** No valid Bearer token (missing, never issued, another scheme). */
  tokenInvalid: boolean;
  /** `list`: the command list path; `command`: a listed command's path; `unlisted`: another name there; `unknown`: another path. */
  path: 'list' | 'command' | 'unlisted' | 'unknown';
  method: string;
}

/**
 * The answers the error table allows for a request. Every error whose condition holds is allowed,
 * since which one wins when several meet is not stated (MAINT-UNSPEC-CHECK-ORDER); when none
 * holds, only the success answer is.
 */
export function allowedAnswers({ tokenInvalid, path, method }: RequestConditions): AnswerKind[] {
  const errors: AnswerKind[] = tokenInvalid ? ['invalid-token'] : [];
  if (path === 'unknown') errors.push('unknown-endpoint');
  else if (path === 'list' && method !== 'GET') errors.push('unknown-endpoint');
  else if (path !== 'list' && method !== 'POST') errors.push('unknown-endpoint');
  else if (path === 'unlisted') errors.push('unknown-command');
  if (errors.length > 0) return errors;
  return [path === 'list' ? 'command-list' : 'accepted'];
}
