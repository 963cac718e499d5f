import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of a UTF-8 text: how ingest keys and MCP token secrets are kept at rest. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
