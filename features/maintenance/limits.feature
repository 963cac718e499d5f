Feature: Limits of the maintenance HTTP API
  maintenance-and-fleet-api.md, part A: "Limits" and "Endpoints / Interface A". A POST body may be up
  to 1 MiB (1048576 bytes); a larger one is answered 413 with {"ok": false, "error": "body-too-large"};
  interface A has no rate limit. Bodies are built byte-exact: a JSON object with one unknown field
  padded to the size (whitespace below 14 bytes). Which answer wins when a too-large body meets
  another error is not stated (MAINT-UNSPEC-CHECK-ORDER): the 413 scenarios use a valid token and a
  listed command. The request Content-Type is left out (MAINT-UNSPEC-REQUEST-CONTENT-TYPE).

  @MAINT-POST-BODY-UP-TO-1MIB
  Scenario: A body of exactly 1 MiB is accepted
    When the API client posts "DeleteTemporaryFiles" with a JSON body of 1048576 bytes
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-POST-BODY-UP-TO-1MIB
  Scenario: Bodies of generated sizes up to 1 MiB, the boundary included, are accepted
    Then every body of a generated size from 0 to 1048576 bytes is accepted with 200 and status ok (10 runs)

  @MAINT-ERR-413-BODY-TOO-LARGE
  Scenario: A body of 1 MiB and one byte is answered 413 with the body-too-large shape
    When the API client posts "DeleteTemporaryFiles" with a JSON body of 1048577 bytes
    Then the API answers 413 with the JSON body '{"ok":false,"error":"body-too-large"}'

  @MAINT-ERR-413-BODY-TOO-LARGE
  Scenario: Bodies of generated sizes above 1 MiB are answered 413 with the body-too-large shape
    Then every body of a generated size from 1048577 to 8388608 bytes is answered 413 with the body-too-large shape (8 runs)

  @MAINT-ERR-413-BODY-TOO-LARGE
  Scenario: A 100 MB body streamed without Content-Length is cut at the limit and answered 413
    When the API client streams a body of 100000000 bytes without Content-Length to "DeleteTemporaryFiles"
    Then the API answers 413 with the JSON body '{"ok":false,"error":"body-too-large"}'

  @MAINT-ERR-413-BODY-TOO-LARGE
  Scenario: A body announced with a Content-Length of 100 MB is answered 413
    When the API client streams a body of 100000000 bytes with its Content-Length to "DeleteTemporaryFiles"
    Then the API answers 413 with the JSON body '{"ok":false,"error":"body-too-large"}'

  @MAINT-NO-RATE-LIMIT
  Scenario: 400 calls in quick succession from 20 clients are all served, none refused for its rate
    Given the API client holds a valid API token
    When 20 clients make 400 calls with the token as fast as they can
    Then every one of those calls was answered 200 and none 429
