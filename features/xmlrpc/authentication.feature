@xml-rpc
Feature: Signing in to the XML-RPC data queries
  monitoring-endpoint-and-xmlrpc.md, "Authentication / XML-RPC GetMonitoringData and
  GetMonitoringDataXML": the credentials of a telephone-system user travel in the URL parameter
  `de.vendor.pbx.auth` as `<LOGIN_ID>:<SECRET>`, SECRET = lowercase hex SHA-512(login id + `*` +
  lowercase hex SHA-512(password)); the telephone system checks them before the module handler runs.
  The harness computes the value itself (test-vectors.md) and never takes it from the PBX. The form
  of the error reply is not stated (XMLRPC-UNSPEC-AUTH-ERROR): an XML-RPC fault and an HTTP error
  status both count. That the handler does not run is seen in the module log: with data collection
  made to fail, a signed-in call writes an entry of a kind (level and source) a fault-free call does
  not write; a call with failed credentials must write no more entries of that kind than a refused
  call wrote before the fault. Kinds are compared, not messages, which carry per-call parts.

  @XMLRPC-AUTH-PARAM
  Scenario Outline: <command> accepts the computed credentials of the target's user
    When the monitoring client calls "<command>" with an empty struct
    Then the answer is a struct whose member "data" holds <payload>

    Examples:
      | command              | payload                                            |
      | GetMonitoringData    | the agent text                                     |
      | GetMonitoringDataXML | an XML document with the root element "local"      |

  @XMLRPC-AUTH-PARAM
  Scenario: The published test vector signs user 123 in
    Given the PBX has the user "123" with the password "Pass123"
    When a caller with the credentials value "123:81d8af78c98b153485f7d48e3437eb735ba37f0f013c5e06ba74536776c5945694e7cde71e2effbed7b5a1d1a4566fadcd847ef4098c234052fdfd288e8b6ced" calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text

  @XMLRPC-AUTH-PARAM
  Scenario: The colon of the credentials may arrive percent-encoded as %3A
    When a caller whose credentials carry the colon as "%3A" calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text

  @XMLRPC-AUTH-PARAM @XMLRPC-ERR-BAD-LOGIN
  Scenario: Generated users sign in with the computed value and are refused with a wrong password
    Then for generated users the computed credentials sign in and those of a wrong password are refused without data (15 runs)

  @XMLRPC-AUTH-BEFORE-HANDLER
  Scenario: A call with failed credentials never reaches the module handler
    Given the module-log entries of a fault-free "GetMonitoringData" call are noted
    And the module-log entries of a refused "GetMonitoringData" call are noted
    And the operator makes data collection fail
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the answer is an empty struct without the member "data"
    And the module log has an entry that the fault-free call did not produce
    When a caller with a wrong password calls "GetMonitoringData" with an empty struct
    Then the answer is an XML-RPC error reply without data
    And the module log has no more entries of those kinds than the refused call wrote before the fault
