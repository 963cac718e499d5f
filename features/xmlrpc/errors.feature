@xml-rpc
Feature: Errors of the XML-RPC queries
  monitoring-endpoint-and-xmlrpc.md, "Errors": a data query without login or with an invalid one gets an
  error reply from the telephone system and no data; an unknown method name gets a fault meaning unknown
  method; an internal error while collecting data yields an empty struct, with details in the module
  log. Fault codes and strings are not shown (XMLRPC-UNSPEC-FAULTS) and the form of the login error is
  not stated (XMLRPC-UNSPEC-AUTH-ERROR), so the scenarios require a fault or HTTP error status for
  login errors, never particular codes, and take as "the fault meaning unknown method" the one the
  target returns for the surely unknown `<instance>.NoSuchMethod`: another unknown name must get the
  same fault code and fault string (with its own name where the reference names its method). "Details
  in the module log" are an entry the failing call writes beyond those a fault-free call of the same
  method writes, compared by level and source (messages carry per-call parts).

  @XMLRPC-ERR-NO-LOGIN
  Scenario Outline: <command> without login gets an error reply and no data
    When a caller without credentials calls "<command>" with an empty struct
    Then the answer is an XML-RPC error reply without data

    Examples:
      | command              |
      | GetMonitoringData    |
      | GetMonitoringDataXML |

  @XMLRPC-ERR-BAD-LOGIN
  Scenario Outline: <command> with <login> gets an error reply and no data
    When a caller with <login> calls "<command>" with an empty struct
    Then the answer is an XML-RPC error reply without data

    Examples:
      | login                 | command              |
      | an unknown login id   | GetMonitoringData    |
      | a wrong password      | GetMonitoringData    |
      | a wrong secret        | GetMonitoringData    |
      | an unknown login id   | GetMonitoringDataXML |
      | a wrong password      | GetMonitoringDataXML |
      | a wrong secret        | GetMonitoringDataXML |

  @XMLRPC-ERR-BAD-LOGIN
  Scenario: Generated invalid credential values get an error reply and no data
    Then every generated invalid credentials value gets an XML-RPC error reply without data (25 runs)

  @XMLRPC-ERR-UNKNOWN-METHOD
  Scenario Outline: The unknown method name "<method>" gets an XML-RPC fault
    When the monitoring client calls the method named "<method>" with an empty struct
    Then the answer is the XML-RPC fault of an unknown method

    Examples:
      | method                       |
      | Monitoring.NoSuchMethod      |
      | Monitor.GetMonitoringData    |
      | Monitoringx.GetMonitoringXML |
      | GetMonitoringData            |
      | Monitoring.GetMonitoringData.x |

  @XMLRPC-ERR-UNKNOWN-METHOD
  Scenario: Generated unknown method names get the XML-RPC fault of an unknown method
    Then every generated unknown method name gets the XML-RPC fault of an unknown method (25 runs)

  @XMLRPC-ERR-COLLECTION
  Scenario Outline: An internal error while collecting data makes <command> return an empty struct and log details
    Given the module-log entries of a fault-free "<command>" call are noted
    And the operator makes data collection fail
    When the monitoring client calls "<command>" with an empty struct
    Then the answer is an empty struct without the member "data"
    And the module log has an entry that the fault-free call did not produce

    Examples:
      | command              |
      | GetMonitoringData    |
      | GetMonitoringDataXML |
