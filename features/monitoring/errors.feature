Feature: Errors of the data endpoint
  monitoring-endpoint-and-xmlrpc.md, "Errors": an internal renderer error is answered
  `500 Internal Server Error` in HTTP mode and with one text line starting with `ERROR:` without HTTP;
  a JSON serialisation error yields a body `{"error": <text>}`. The faults are switched on through the
  control plane. The status of the JSON error and its form without HTTP are not stated
  (MON-UNSPEC-JSON-ERROR-STATUS) and are not checked.

  @MON-ERR-RENDER-HTTP
  Scenario Outline: A renderer error in HTTP mode is answered 500 Internal Server Error for <path>
    Given the operator makes the snapshot renderer fail
    When a monitoring host requests "<path>"
    Then the answer has the status line "500 Internal Server Error"

    Examples:
      | path     |
      | /checkmk |
      | /xml     |
      | /json    |

  @MON-ERR-RENDER-RAW
  Scenario: A renderer error without HTTP yields one text line starting with ERROR:
    Given the operator makes the snapshot renderer fail
    When a monitoring host connects without sending a request
    Then the reply is one text line starting with "ERROR:"

  @MON-ERR-JSON
  Scenario: A JSON serialisation error yields a body {"error": <text>}
    Given the operator makes JSON serialisation fail
    When a monitoring host requests "/json"
    Then the body is a JSON object whose only member is "error" holding a text
