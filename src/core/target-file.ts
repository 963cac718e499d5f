import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-paths.ts';
import { joinProblems, strictValidator } from './strict-schema.ts';

/** The `pbx` section of a target file (schemas/target.schema.json). */
export interface PbxTargetSection {
  webUrl: string;
  monitoring: { host: string; port: number };
  xmlrpc: { path: string; instanceName: string; authParam: string; login: string; password: string };
  controlUrl?: string;
  /** Bearer token of a control plane beyond loopback (a secret). */
  controlToken?: string;
  listedClientAddress: string;
  unlistedClientAddress?: string;
  /** More client addresses for the CIDR edge examples (MON-AUTH-HOSTS-CIDR). */
  edgeClientAddresses?: string[];
}

/** A target file as read from disk; sections of later interfaces pass through untouched. */
export interface TargetFile {
  name: string;
  pbx: PbxTargetSection;
  [section: string]: unknown;
}

/** A harness error: the target file is missing, unreadable or invalid. Never a verdict. */
export class TargetFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`target file ${file}: ${message}`);
    this.name = 'TargetFileError';
  }
}

/**
 * A target as the run holds it: parsed and validated once (verify's preflight), then handed to
 * Cucumber's World as `worldParameters.target` (plain JSON, so it crosses into workers as is).
 */
export interface ParsedTarget {
  /** The target file's absolute path (reports and reproduce commands name it). */
  file: string;
  description: TargetFile;
}

export const TARGET_SCHEMA_PATH = join(PROJECT_ROOT, 'schemas', 'target.schema.json');

/** Reads and validates a target file against schemas/target.schema.json. */
export function loadTargetFile(file: string): TargetFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TargetFileError(
      file,
      `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  let value: unknown;
  try {
    // A UTF-8 byte order mark, as some editors save, is not part of the JSON (issue 20, item 22).
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new TargetFileError(file, `is not JSON (${(error as Error).message})`);
  }
  return parseTargetFile(value, file);
}

/**
 * Validates an already parsed target description strictly: unknown keys are errors with the
 * nearest valid key suggested, and every problem is listed (src/core/strict-schema.ts).
 */
export function parseTargetFile(value: unknown, file = '<inline>'): TargetFile {
  let validator: ReturnType<typeof strictValidator>;
  try {
    validator = strictValidator(TARGET_SCHEMA_PATH);
  } catch {
    throw new TargetFileError(file, `schema ${TARGET_SCHEMA_PATH} is missing or unreadable`);
  }
  const verdict = validator.validate(value);
  if (!verdict.ok) {
    throw new TargetFileError(
      file,
      `does not match schemas/target.schema.json: ${joinProblems(verdict.problems)}`,
    );
  }
  return value as TargetFile;
}
