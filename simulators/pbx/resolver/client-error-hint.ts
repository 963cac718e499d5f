/**
 * The hint the search log adds to a 4xx answer (RESOLVER-4XX-HINT). The spec does not give its
 * wording; these name the usual cause per status.
 */
export function clientErrorHint(status: number): string {
  switch (status) {
    case 400:
      return 'Bad request: check the number format and the placeholders (does the endpoint read + as a space? try format 00xx).';
    case 401:
      return 'Unauthorized: check the authentication method and the credentials of the provider.';
    case 403:
      return 'Forbidden: check the credentials or token, and whether the endpoint admits the telephone system.';
    case 404:
      return 'Not found: check the URL and its placeholders; for an unknown number answer 2xx with an empty result instead.';
    case 405:
      return 'Method not allowed: check GET or POST in the provider settings.';
    case 406:
      return 'Not acceptable: the endpoint refuses the accept header (HTML and XML); answer with any text body.';
    case 408:
      return 'Request timeout at the endpoint.';
    case 415:
      return 'Unsupported media type: POST sends application/json with the member query.';
    case 429:
      return 'Too many requests: the endpoint rate-limits the telephone system.';
    default:
      return `Client error ${status}: the endpoint refused the request; check URL, method, number format and authentication.`;
  }
}
