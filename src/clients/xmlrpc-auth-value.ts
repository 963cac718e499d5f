import { createHash } from 'node:crypto';

function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/**
 * The value of the credentials URL parameter, computed here independently of the simulator
 * (XMLRPC-AUTH-PARAM): `<login>:<lowercase hex SHA-512(login + "*" + lowercase hex SHA-512(password))>`.
 */
export function xmlRpcAuthValue(login: string, password: string): string {
  return `${login}:${sha512Hex(`${login}*${sha512Hex(password)}`)}`;
}
