/** The control plane addressed something that does not exist (HTTP 404 there). */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}

/** The control plane tried to create something that exists (HTTP 409 there). */
export class ConflictError extends Error {
  override name = 'ConflictError';
}
