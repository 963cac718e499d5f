import { createHash } from 'node:crypto';
import {
  describeValue,
  requireArray,
  requireBoolean,
  requireObject,
  requireString,
} from '../../shared/http/control-input.ts';
import { ControlInputError } from '../../shared/http/control-input-error.ts';
import type { PbxUser } from '../state/types.ts';

const MAX_USERS = 1000;
/** The XML-RPC credential is `<login>:<secret>`, so a `:` in a login would make it ambiguous. */
const LOGIN = /^[^:\s\p{Cc}]{1,128}$/u;

/** Lowercase hex SHA-512 of a UTF-8 string, the form in which the PBX keeps passwords. */
export function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/**
 * Turns the users the control plane receives (clear passwords) into state users: the password is
 * hashed at once (lowercase hex SHA-512, from which the XML-RPC credential of XMLRPC-AUTH-PARAM is derived) and the clear text is dropped.
 * Logins must be unique and free of `:`, white space and control characters.
 */
export function checkUsers(value: unknown): PbxUser[] {
  const list = requireArray(value, 'users', MAX_USERS);
  const seen = new Set<string>();
  return list.map((item, index) => {
    const field = `users[${index}]`;
    const user = requireObject(item, field, ['login', 'password', 'admin']);
    const login = user['login'];
    if (typeof login !== 'string' || !LOGIN.test(login)) {
      throw new ControlInputError(
        `${field}.login must be 1 to 128 characters without ':', spaces or control characters, got ${describeValue(login)}`,
      );
    }
    if (seen.has(login)) throw new ControlInputError(`${field}.login ${JSON.stringify(login)} appears twice`);
    seen.add(login);
    // Never echo the password back, not even in an error message.
    if (typeof user['password'] !== 'string')
      throw new ControlInputError(`${field}.password must be a string`);
    const password = requireString(user['password'], `${field}.password`, 1024);
    const admin = user['admin'] === undefined ? false : requireBoolean(user['admin'], `${field}.admin`);
    return { login, passwordSha512: sha512Hex(password), admin };
  });
}
