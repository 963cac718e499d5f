import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A route of a web server that hosts several faces (the PBX web server): the first route whose
 * prefix matches the path handles the request. The faces make their routes; the server only
 * picks one, so no face imports the server or another face.
 */
export interface WebRoute {
  prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/** The plain answer for a path no face serves (also what a module without the API answers). */
export const NOT_FOUND_TEXT = 'not found\n';
