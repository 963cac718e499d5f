Feature: Where the maintenance HTTP API lives and which module versions have it
  maintenance-and-fleet-api.md, part A: "What the service does", "Endpoints / Interface A" and
  "Versioning". The interface lies under {base_url}/fp/7ce0d8df/api/v1 with the fixed module code
  7ce0d8df, outside the telephone-system login, and exists only in module versions after 26.7.28.
  The command list is read at .../api/v1/system-functions, not .../api/v1/v1/system-functions
  (MAINT-UNSPEC-PATH-V1). What a module without the interface answers is not stated beyond "nothing
  is served": the scenarios require that no answer of interface A comes and no command runs. The
  module version is set through the control plane. Reachability on HTTPS port 443
  (MAINT-REACHABILITY) and the versioning policy (MAINT-VERSIONING-POLICY) are not testable.

  @MAINT-BASE-PATH
  Scenario: The command list is at {base_url}/fp/7ce0d8df/api/v1/system-functions
    When the API client requests "/fp/7ce0d8df/api/v1/system-functions" below the PBX's base URL
    Then the API answers 200 with a list of command names
    When the API client posts to "/fp/7ce0d8df/api/v1/system-functions/DeleteTemporaryFiles" below the PBX's base URL
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-OUTSIDE-PBX-LOGIN
  Scenario: A call carrying only a Bearer token, without any PBX session, is served and not redirected
    When the API client requests the command list
    Then the API answers 200 with a list of command names
    And the answer is no redirect
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    And the answer is no redirect

  @MAINT-MODULE-VERSION-GATE
  Scenario Outline: A module at version <version> serves nothing under the API base
    Given the API client holds a valid API token
    And the PBX has something for "HangupAllCalls" to act on
    And the operator sets the module version to "<version>"
    When the API client requests the command list
    Then nothing of the maintenance API answers
    When the API client posts "HangupAllCalls" with an empty body
    Then nothing of the maintenance API answers
    And "HangupAllCalls" has changed nothing on the PBX
    And no completion event follows

    Examples:
      | version |
      | 26.7.28 |
      | 26.7.27 |
      | 26.7.1  |
      | 26.6.30 |
      | 25.12.9 |

  @MAINT-MODULE-VERSION-GATE
  Scenario Outline: A module at version <version> serves the interface
    Given the API client holds a valid API token
    And the operator sets the module version to "<version>"
    When the API client requests the command list
    Then the API answers 200 with a list of command names
    When the API client posts "HangupAllCalls" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'

    Examples:
      | version |
      | 26.7.29 |
      | 26.8.1  |
      | 26.12.1 |
      | 27.1.5  |

  @MAINT-MODULE-VERSION-GATE
  Scenario: The interface appears when the module is updated past 26.7.28
    Given the API client holds a valid API token
    And the operator sets the module version to "26.7.28"
    When the API client requests the command list
    Then nothing of the maintenance API answers
    When the operator sets the module version to "26.7.29"
    And the API client requests the command list
    Then the API answers 200 with a list of command names
