Feature: The error table of the maintenance HTTP API
  maintenance-and-fleet-api.md, part A: "Errors / Interface A" and "Authentication / Interface A".
  Transport errors are JSON objects {"status": "error", "message": ...}: 401 "invalid or missing API
  token", 404 "unknown endpoint" and "unknown command", 500 "command failed"; 413 has the shape
  {"ok": false, "error": "body-too-large"} (limits.feature); the silent discards are answered 200.
  Every answer is application/json. Left open and not asserted: which answer wins when several
  conditions meet (MAINT-UNSPEC-CHECK-ORDER: generated requests accept any answer whose condition
  holds), case sensitivity, trailing slashes, query strings and percent-encoding of paths and names
  (MAINT-UNSPEC-NAME-MATCHING: generated paths and names avoid them), the Bearer scheme's case and
  whitespace and WWW-Authenticate (MAINT-UNSPEC-BEARER-SYNTAX), the request Content-Type
  (MAINT-UNSPEC-REQUEST-CONTENT-TYPE) and what the unavailable versions and invalid modes are
  (MAINT-UNSPEC-PARAMETER-VALUES: plainly invalid ones are used).

  @MAINT-AUTH-401-MISSING @MAINT-ERR-SHAPE
  Scenario: The command list without a token is answered 401 with the exact error body
    When a client without a token requests the command list
    Then the API answers 401 with the JSON body '{"status":"error","message":"invalid or missing API token"}'

  @MAINT-AUTH-401-MISSING @MAINT-ERR-SHAPE
  Scenario: A command posted without a token is answered 401 with the exact error body
    When a client without a token posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 401 with the JSON body '{"status":"error","message":"invalid or missing API token"}'

  @MAINT-AUTH-401-MISSING
  Scenario: An Authorization header with the Bearer scheme and no token counts as a missing token
    When a client requests the command list with the Authorization header "Bearer"
    Then the API answers 401 with the JSON body '{"status":"error","message":"invalid or missing API token"}'

  @MAINT-AUTH-401-INVALID @MAINT-ERR-SHAPE
  Scenario: A token that was never issued is answered 401 on both endpoints
    When a client requests the command list with a token that was never issued
    Then the API answers 401 with the error message "invalid or missing API token"
    When a client posts "DeleteTemporaryFiles" with a token that was never issued
    Then the API answers 401 with the error message "invalid or missing API token"

  @MAINT-AUTH-401-INVALID
  Scenario: Generated tokens that were never issued are answered 401 on both endpoints
    Given the API client holds a valid API token
    Then every generated token that was never issued is answered 401 with "invalid or missing API token" on both endpoints (25 runs)

  @MAINT-AUTH-401-OTHER-SCHEME
  Scenario Outline: The valid token under the scheme <scheme> counts as a missing token
    Given the API client holds a valid API token
    When a client requests the command list with the Authorization header "<scheme> <token>"
    Then the API answers 401 with the error message "invalid or missing API token"
    When a client posts "DeleteTemporaryFiles" with the Authorization header "<scheme> <token>"
    Then the API answers 401 with the error message "invalid or missing API token"

    Examples:
      | scheme |
      | Basic  |
      | Token  |
      | Digest |
      | ApiKey |

  @MAINT-AUTH-401-NOT-EXECUTED
  Scenario Outline: A POST of <command> refused with 401 (<refusal>) is not executed and brings no completion event
    Given the PBX has something for "<command>" to act on
    When a client posts "<command>" <refusal>
    Then the API answers 401 with the error message "invalid or missing API token"
    And no completion event follows
    And "<command>" has changed nothing on the PBX

    Examples:
      | command              | refusal                                       |
      | HangupAllCalls       | without a token                               |
      | DeleteSystemMessages | with a token that was never issued            |
      | RunAutoCleanup       | with the Authorization header "Basic <token>" |

  @MAINT-ERR-404-UNKNOWN-PATH @MAINT-ERR-SHAPE
  Scenario Outline: <method> <path> below the API base is an unknown path: 404 unknown endpoint
    When the API client sends "<method>" to "<path>" below the API base
    Then the API answers 404 with the error message "unknown endpoint"

    Examples:
      | method | path                          |
      | GET    | /commands                     |
      | GET    | /status                       |
      | POST   | /system-function/DeleteLogs   |
      | POST   | /functions/HangupAllCalls     |
      | GET    | /tokens                       |

  @MAINT-ERR-404-UNKNOWN-PATH
  Scenario: Generated unknown paths below the API base are answered 404 unknown endpoint
    Given the API client holds a valid API token
    Then every generated unknown path below the API base is answered 404 with "unknown endpoint" for GET and POST (25 runs)

  @MAINT-ERR-404-WRONG-METHOD @MAINT-ERR-SHAPE
  Scenario Outline: <method> on <path> is a wrong method: 404 unknown endpoint
    When the API client sends "<method>" to "<path>" below the API base
    Then the API answers 404 with the error message "unknown endpoint"

    Examples:
      | method | path                            |
      | POST   | /system-functions               |
      | PUT    | /system-functions               |
      | DELETE | /system-functions               |
      | PATCH  | /system-functions               |
      | GET    | /system-functions/DeleteLogs    |
      | PUT    | /system-functions/DeleteLogs    |
      | DELETE | /system-functions/RestartPbx    |
      | PATCH  | /system-functions/UpdatePbx     |

  @MAINT-ERR-404-WRONG-METHOD
  Scenario: Generated wrong methods on the known paths are answered 404 unknown endpoint
    Given the API client holds a valid API token
    Then every generated wrong method on a known path is answered 404 with "unknown endpoint" (20 runs)

  @MAINT-ERR-404-UNKNOWN-COMMAND @MAINT-ERR-SHAPE
  Scenario Outline: POST of the unlisted name <name> is answered 404 unknown command
    When the API client posts "<name>" with an empty body
    Then the API answers 404 with the error message "unknown command"

    Examples:
      | name             |
      | DeleteEverything |
      | FormatDisk       |
      | RebootPbx        |
      | UpdatePbxNow     |

  @MAINT-ERR-404-UNKNOWN-COMMAND
  Scenario: Generated names that are not in the command list are answered 404 unknown command
    Given the API client holds a valid API token
    Then every generated name outside the command list, posted as a command, is answered 404 with "unknown command" (25 runs)

  @MAINT-ERR-500-COMMAND-FAILED @MAINT-ERR-SHAPE @MAINT-JSON-RESPONSES
  Scenario: A command that cannot be handed over internally is answered 500 command failed
    Given the operator makes the command hand-over fail
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 500 with the error message "command failed"
    And the answer has Content-Type application/json and a JSON body

  @MAINT-ERR-200-CALLDATA-UNCONFIRMED
  Scenario Outline: DeleteCallData without confirmed (<body>) is answered 200 with status ok
    When the API client posts "DeleteCallData" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

    Examples:
      | body                               |
      | {}                                 |
      | {"startTime":0,"endTime":1000}     |

  @MAINT-ERR-200-CALLDATA-UNCONFIRMED
  Scenario: DeleteCallData with an empty body is answered 200 with status ok
    When the API client posts "DeleteCallData" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-ERR-200-PROVISION-NO-TYPE
  Scenario: ProvisionDevices without type is answered 200 with status ok
    When the API client posts "ProvisionDevices" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the API client posts "ProvisionDevices" with the body '{}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-ERR-200-INVALID-MODE
  Scenario: RunAutoCleanup with an invalid mode is answered 200 with status ok
    When the API client posts "RunAutoCleanup" with the body '{"mode":"no-such-mode"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-ERR-200-UNAVAILABLE-VERSION
  Scenario: UpdatePbx with an unavailable target version is answered 200 with status ok
    When the API client posts "UpdatePbx" with the body '{"version":"99.0.0.0"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-JSON-RESPONSES
  Scenario: Successes and the errors of the table come as application/json with a JSON body
    Given the API client holds a valid API token
    When the API client requests the command list
    And the API client posts "DeleteTemporaryFiles" with an empty body
    And a client without a token requests the command list
    And a client posts "DeleteTemporaryFiles" with a token that was never issued
    And the API client sends "GET" to "/no-such-endpoint" below the API base
    And the API client sends "DELETE" to "/system-functions" below the API base
    And the API client posts "NoSuchCommand" with an empty body
    And the API client posts "DeleteTemporaryFiles" with a JSON body of 1048577 bytes
    Then every answer of the API in this scenario had Content-Type application/json and a JSON body

  @MAINT-JSON-RESPONSES @MAINT-ERR-SHAPE
  Scenario: Every answer to generated requests is one the error table allows, as application/json, and never a 5xx
    Given the API client holds a valid API token
    Then every generated request, well-formed or not, gets an answer the error table allows for it, as application/json with a JSON body and never a 5xx (40 runs)
