Feature: Commands of the maintenance HTTP API
  maintenance-and-fleet-api.md, part A: "What the service does", "Command names", "Command parameters
  seen in the interface", "States and transitions / Command execution" and "Endpoints / Interface A".
  GET .../system-functions lists the commands; POST .../system-functions/<command> is answered
  200 {"status": "ok"} at once and runs in the background; maintenance actions report their
  completion by an event, RestartPbx and UpdatePbx send none; a missing licence or unusable
  parameters discard the command silently with a module-log entry. Completion events and the module
  log are read through the control plane. Left open and not asserted: the full parameter list per
  command (MAINT-UNSPEC-COMMAND-PARAMETERS), the valid values of mode, scope and type and which
  versions are available (MAINT-UNSPEC-PARAMETER-VALUES: the scenarios use values that are plainly
  valid or plainly invalid, or make a version available through the control plane), the rules of
  UpdatePbx scheduling beyond "installs at executeAt" (MAINT-UNSPEC-UPDATE-SCHEDULING), the name
  and fields of completion events beyond the control plane's schema (MAINT-UNSPEC-COMPLETION-EVENTS),
  the content of module-log entries (MAINT-UNSPEC-MODULE-LOG), confirmed = false
  (MAINT-UNSPEC-CONFIRMED-FALSE), parameters of the wrong JSON type (MAINT-UNSPEC-WRONG-TYPES), JSON
  bodies that are not objects (MAINT-UNSPEC-NON-OBJECT-BODY) and the request Content-Type
  (MAINT-UNSPEC-REQUEST-CONTENT-TYPE).

  @MAINT-COMMAND-NAMES @MAINT-GET-COMMANDS
  Scenario: The command list holds the 14 command names, spelled exactly
    When the API client requests the command list
    Then the API answers 200 with a list of command names
    And the command list contains the names
      | RunAutoCleanup       |
      | DeleteSystemMessages |
      | DeleteLogs           |
      | DeleteTemporaryFiles |
      | DeleteRecordings     |
      | DeleteFaxes          |
      | DeleteCallData       |
      | DeleteFirmware       |
      | DeleteBackups        |
      | ReRegisterTrunks     |
      | HangupAllCalls       |
      | ProvisionDevices     |
      | RestartPbx           |
      | UpdatePbx            |

  @MAINT-GET-COMMANDS
  Scenario: GET system-functions without a body is answered 200 with {"commands": [...]} of strings
    When the API client sends "GET" to "/system-functions" below the API base
    Then the API answers 200 with a list of command names

  @MAINT-POST-ACCEPTED
  Scenario Outline: A POST of <command> with a valid token is answered 200 with {"status": "ok"}
    When the API client posts "<command>" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

    Examples:
      | command          | body                                |
      | DeleteLogs       | {"scope":"all"}                     |
      | HangupAllCalls   | {}                                  |
      | DeleteCallData   | {"confirmed":true}                  |
      | ProvisionDevices | {"type":"sip"}                      |
      | DeleteFaxes      | {"startTime":0,"endTime":1000}      |

  @MAINT-POST-LISTED-COMMAND
  Scenario: Every name the command list returns is accepted as a command
    When the API client posts every command the list returns, the system actions last
    Then every one of them is answered 200 with the JSON body '{"status":"ok"}'

  @MAINT-POST-LISTED-COMMAND
  Scenario: Generated commands from the list, with generated bodies of unknown fields, are accepted
    Then every generated command from the list, posted with generated unknown fields, is answered 200 with status ok (15 runs)

  @MAINT-POST-EMPTY-BODY
  Scenario Outline: <command> with an empty body is answered 200 with status ok
    When the API client posts "<command>" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the API client posts "<command>" without any body
    Then the API answers 200 with the JSON body '{"status":"ok"}'

    Examples:
      | command              |
      | DeleteTemporaryFiles |
      | HangupAllCalls       |
      | ReRegisterTrunks     |
      | DeleteBackups        |
      | RunAutoCleanup       |

  @MAINT-EXEC-ASYNC
  Scenario: A command is accepted with 200 at once and its completion event is recorded after the request
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a completion event for "DeleteTemporaryFiles" follows
    And the completion event was recorded after the command was posted

  @MAINT-EXEC-ASYNC
  Scenario: A command is answered 200 while it still waits to run, and runs only afterwards
    Given the PBX has something for "DeleteTemporaryFiles" to act on
    And the operator holds the execution of accepted commands
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And "DeleteTemporaryFiles" has not run yet
    When the operator releases the execution of accepted commands
    Then a completion event for "DeleteTemporaryFiles" follows
    And "DeleteTemporaryFiles" has acted on the PBX

  @MAINT-EXEC-ASYNC
  Scenario: RestartPbx is answered 200 while the restart it started is still running
    Given the operator watches the PBX through its control plane
    When the API client posts "RestartPbx" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And the restart the command started has not finished yet

  @MAINT-EXEC-COMPLETION-EVENT
  Scenario Outline: <command> run with a valid licence and usable parameters reports its completion by an event
    Given the PBX has something for "<command>" to act on
    When the API client posts "<command>" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a completion event for "<command>" follows
    And "<command>" has acted on the PBX

    Examples:
      | command              | body               |
      | RunAutoCleanup       | {}                 |
      | DeleteSystemMessages | {}                 |
      | DeleteLogs           | {}                 |
      | DeleteTemporaryFiles | {}                 |
      | DeleteRecordings     | {}                 |
      | DeleteFaxes          | {}                 |
      | DeleteCallData       | {"confirmed":true} |
      | DeleteFirmware       | {}                 |
      | DeleteBackups        | {}                 |
      | ReRegisterTrunks     | {}                 |
      | HangupAllCalls       | {}                 |
      | ProvisionDevices     | {"type":"sip"}     |

  @MAINT-EXEC-NO-EVENT-SYSTEM-ACTIONS
  Scenario Outline: <command> is executed and sends no completion event
    Given the PBX has something for "<command>" to act on
    When the API client posts "<command>" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And "<command>" has acted on the PBX
    And no completion event follows

    Examples:
      | command    |
      | RestartPbx |
      | UpdatePbx  |

  @MAINT-TRIGGER-SET-TO-API
  Scenario Outline: A client's trigger <trigger> is replaced by API
    When the API client posts "DeleteTemporaryFiles" with the body '{"trigger":<trigger>}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a completion event for "DeleteTemporaryFiles" follows
    And the command ran with the trigger "API"

    Examples:
      | trigger |
      | "ERP"   |
      | "api"   |
      | "UI"    |
      | ""      |
      | "API "  |

  @MAINT-TRIGGER-SET-TO-API @MAINT-POST-UNKNOWN-FIELDS
  Scenario: Generated triggers and unknown fields never change the parameters a command runs with
    Then for generated client triggers and unknown fields every command runs with the trigger API and the parameters it runs with without them (15 runs)

  @MAINT-LICENCE-NOT-NEEDED-TO-ACCEPT
  Scenario: Without the module licence every listed command is still accepted with 200 and status ok
    Given the operator withdraws the module licence
    When the API client posts every command the list returns, the system actions last
    Then every one of them is answered 200 with the JSON body '{"status":"ok"}'

  @MAINT-LICENCE-NEEDED-TO-EXECUTE
  Scenario Outline: Without the module licence an accepted <command> is dropped: module-log entry, no completion event
    Given the PBX has something for "<command>" to act on
    And the operator withdraws the module licence
    When the API client posts "<command>" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no completion event follows
    And "<command>" has changed nothing on the PBX

    Examples:
      | command              | body               |
      | DeleteSystemMessages | {}                 |
      | HangupAllCalls       | {}                 |
      | DeleteCallData       | {"confirmed":true} |
      | ProvisionDevices     | {"type":"sip"}     |
      | RunAutoCleanup       | {}                 |
      | UpdatePbx            | {}                 |
      | RestartPbx           | {}                 |

  @MAINT-PARAM-SCOPE
  Scenario: DeleteLogs runs with the scope given
    When the API client posts "DeleteLogs" with the body '{"scope":"support"}'
    Then a completion event for "DeleteLogs" follows
    And the command ran with the parameter "scope" set to the JSON value '"support"'

  @MAINT-PARAM-VERSION
  Scenario: UpdatePbx installs the version given as its target version
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    When the API client posts "UpdatePbx" with the body '{"version":"12.7.0.4"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And once the command has run the PBX runs version "12.7.0.4"
    When the API client posts "UpdatePbx" with the body '{"version":"13.1.0.2"}'
    Then once the command has run the PBX runs version "13.1.0.2"

  @MAINT-PARAM-EXECUTEAT
  Scenario: UpdatePbx with executeAt two days ahead installs then, not now
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    When the API client schedules "UpdatePbx" to version "13.1.0.2" at the local time 2 days ahead
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And once the command has run the PBX still runs its previous version
    When 259200 seconds pass on the PBX clock
    Then once the command has run the PBX runs version "13.1.0.2"

  @MAINT-PARAM-EXECUTEAT
  Scenario: Generated local date-times of the shape yyyy-mm-ddThh:mm are accepted for scheduling
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    Then every generated executeAt of the shape yyyy-mm-ddThh:mm at least 2 days ahead schedules the update, which installs once the clock has passed it (10 runs)

  @MAINT-PARAM-CONFIRMED
  Scenario: DeleteCallData with confirmed true is executed
    Given the PBX has something for "DeleteCallData" to act on
    When the API client posts "DeleteCallData" with the body '{"confirmed":true}'
    Then a completion event for "DeleteCallData" follows
    And the command ran with the parameter "confirmed" set to the JSON value 'true'
    And "DeleteCallData" has acted on the PBX

  @MAINT-PARAM-TYPE
  Scenario: ProvisionDevices with a type given is executed
    Given the PBX has something for "ProvisionDevices" to act on
    When the API client posts "ProvisionDevices" with the body '{"type":"sip"}'
    Then a completion event for "ProvisionDevices" follows
    And "ProvisionDevices" has acted on the PBX
    And the command ran with the parameter "type" set to the JSON value '"sip"'

  @MAINT-PARAM-TIMES-AS-NUMBERS
  Scenario: startTime and endTime are JSON numbers of milliseconds and are used as given
    When the API client posts "DeleteRecordings" with the body '{"startTime":1767225600000,"endTime":1769904000000}'
    Then a completion event for "DeleteRecordings" follows
    And the command ran with the parameter "startTime" set to the JSON value '1767225600000'
    And the command ran with the parameter "endTime" set to the JSON value '1769904000000'

  @MAINT-PARAM-TIMES-AS-NUMBERS
  Scenario: Generated periods in milliseconds since 1970 reach the commands that take them as the numbers sent
    Then for generated startTime and endTime numbers every command that takes a period runs with exactly those numbers (15 runs)

  @MAINT-DISCARD-CALLDATA-UNCONFIRMED
  Scenario: DeleteCallData without confirmed is discarded silently
    Given the PBX has something for "DeleteCallData" to act on
    When the API client posts "DeleteCallData" with the body '{"startTime":0,"endTime":4102444800000}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no completion event follows
    And "DeleteCallData" has changed nothing on the PBX

  @MAINT-DISCARD-PROVISION-NO-TYPE
  Scenario: ProvisionDevices without type is discarded silently
    Given the PBX has something for "ProvisionDevices" to act on
    When the API client posts "ProvisionDevices" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no completion event follows
    And "ProvisionDevices" has changed nothing on the PBX

  @MAINT-DISCARD-INVALID-MODE
  Scenario Outline: <command> with the invalid mode "<mode>" is discarded silently
    Given the PBX has something for "<command>" to act on
    When the API client posts "<command>" with the body '{"mode":"<mode>"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no completion event follows
    And "<command>" has changed nothing on the PBX

    Examples:
      | command        | mode                 |
      | RunAutoCleanup | no-such-mode         |
      | RunAutoCleanup | STANDARD-AND-MORE-42 |

  @MAINT-DISCARD-UNAVAILABLE-VERSION
  Scenario: UpdatePbx to an unavailable version is discarded silently and installs nothing later
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    When the API client posts "UpdatePbx" with the body '{"version":"99.0.0.0"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And once the command has run the PBX still runs its previous version
    And no update is scheduled on the PBX
    When 31536000 seconds pass on the PBX clock
    Then the PBX still runs its previous version

  @MAINT-DISCARD-UNAVAILABLE-VERSION
  Scenario: UpdatePbx scheduled to an unavailable version is discarded silently: nothing installs when the time comes
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    When the API client schedules "UpdatePbx" to version "0.0.0.1-absent" at the local time 2 days ahead
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no update is scheduled on the PBX
    When 259200 seconds pass on the PBX clock
    Then the PBX still runs its previous version

  @MAINT-POST-UNKNOWN-FIELDS
  Scenario: Unknown fields in the body are ignored: the answer is the same as without them
    When the API client posts "DeleteTemporaryFiles" with the body '{"comment":"nightly","requestId":4711,"dryRun":false}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the API client posts "DeleteTemporaryFiles" with the body '{}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-POST-UNKNOWN-FIELDS
  Scenario: Generated unknown fields never change the answer
    Then for generated unknown fields every command from the list is answered as without them (20 runs)

  @MAINT-POST-INVALID-JSON-ACCEPTED
  Scenario Outline: The syntactically invalid JSON body <body> causes no error
    When the API client posts "<command>" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'

    Examples:
      | command              | body                   |
      | DeleteTemporaryFiles | {"scope": "all"        |
      | HangupAllCalls       | not json at all        |
      | DeleteLogs           | {scope: "support"}     |
      | DeleteCallData       | {"confirmed": true,}   |

  @MAINT-POST-INVALID-JSON-ACCEPTED
  Scenario: Generated syntactically invalid JSON bodies are answered 200 with status ok
    Then every generated syntactically invalid JSON body posted with a command from the list is answered 200 with status ok (25 runs)

  @MAINT-POST-INVALID-JSON-NO-PARAMS
  Scenario Outline: <command> with the invalid JSON body <body> runs as if called without parameters
    When the API client posts "<command>" with the body '<body>'
    Then a completion event for "<command>" follows
    And it ran with the same parameters as "<command>" posted with an empty body

    Examples:
      | command        | body                          |
      | DeleteLogs     | {"scope": "support"           |
      | RunAutoCleanup | {"mode": "full",}             |
      | DeleteFaxes    | {"startTime": 0, "endTime": } |

  @MAINT-POST-INVALID-JSON-REQUIRED
  Scenario Outline: <command> with the invalid JSON body <body> is discarded silently
    Given the PBX has something for "<command>" to act on
    When the API client posts "<command>" with the body '<body>'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And a module-log entry is written
    And no completion event follows
    And "<command>" has changed nothing on the PBX

    Examples:
      | command          | body                  |
      | DeleteCallData   | {"confirmed": true    |
      | DeleteCallData   | {"confirmed": true,}  |
      | ProvisionDevices | {"type": "sip"        |
      | ProvisionDevices | {type: "sip"}         |
