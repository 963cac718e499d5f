@xml-rpc
Feature: The three XML-RPC queries of the monitoring module
  monitoring-endpoint-and-xmlrpc.md, "Endpoints / XML-RPC" and "Resources and their fields / XML-RPC
  returns": `POST {base_url}/xml-rpc`, methods `<instance>.<command>` (default instance `Monitoring`),
  one struct in, one struct out. GetMonitoringData returns the agent text, GetMonitoringDataXML the
  `local` document, isActiveDirectoryEnabled the strings `true`/`false`. With the tile off or without a
  licence the data queries return empty payloads; isActiveDirectoryEnabled still answers. Calls without
  a struct parameter or with other `useLocalChecks` values are not stated (XMLRPC-UNSPEC-PARAMS) and
  not made. The address `{base_url}/xml-rpc` is fixed by the spec: XMLRPC-ENDPOINT posts to that
  path literally (the target file's `xmlrpc.path` serves the other scenarios). An old method name is
  "unknown" when it gets the fault the target returns for the surely unknown `<instance>.NoSuchMethod`
  (errors.feature).

  @XMLRPC-ENDPOINT
  Scenario: The queries are served at POST {base_url}/xml-rpc with Content-Type text/xml in UTF-8
    Given the operator names a module instance "Überwachung Süd"
    When a caller posts an XML-RPC call of "GetMonitoringData" with an empty struct to "{base_url}/xml-rpc" with Content-Type "text/xml"
    Then the HTTP answer is a methodResponse with a Content-Type of text/xml
    And the HTTP answer is valid UTF-8 and contains "Überwachung Süd"
    When a caller posts an XML-RPC call of "isActiveDirectoryEnabled" with an empty struct to "{base_url}/xml-rpc" with Content-Type "text/xml"
    Then the HTTP answer is a methodResponse with a Content-Type of text/xml

  @XMLRPC-METHOD-NAMES
  Scenario: The three methods answer under the default instance name Monitoring
    When the monitoring client calls "Monitoring.GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text
    When the monitoring client calls "Monitoring.GetMonitoringDataXML" with an empty struct
    Then the answer is a struct whose member "data" holds an XML document with the root element "local"
    When the monitoring client calls "Monitoring.isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"

  @XMLRPC-INSTANCE-RENAME
  Scenario: After the instance is renamed, the three methods answer under the new name
    Given the operator renames the monitoring instance to "Watchtower"
    When the monitoring client calls "Watchtower.GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text
    When the monitoring client calls "Watchtower.GetMonitoringDataXML" with an empty struct
    Then the answer is a struct whose member "data" holds an XML document with the root element "local"
    When the monitoring client calls "Watchtower.isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"

  @XMLRPC-INSTANCE-RENAME-OLD
  Scenario Outline: After the instance is renamed, <command> under the old name is an unknown method
    Given the operator renames the monitoring instance to "Watchtower"
    When the monitoring client calls "<command>" under the target's original instance name with an empty struct
    Then the answer is the XML-RPC fault of an unknown method

    Examples:
      | command                  |
      | GetMonitoringData        |
      | GetMonitoringDataXML     |
      | isActiveDirectoryEnabled |

  @XMLRPC-STRUCT-IO
  Scenario Outline: <command> takes one struct and returns a struct keyed by its output name <member>
    When the monitoring client calls "<command>" with an empty struct
    Then the answer is a struct with the member "<member>"

    Examples:
      | command                  | member                 |
      | GetMonitoringData        | data                   |
      | GetMonitoringDataXML     | data                   |
      | isActiveDirectoryEnabled | activeDirectoryEnabled |

  @XMLRPC-GMD-RETURN
  Scenario: GetMonitoringData returns a struct whose member data is a string holding the agent text
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text

  @XMLRPC-GMD-USELOCALCHECKS-DEFAULT
  Scenario: An empty struct counts as useLocalChecks false
    When the monitoring client calls "GetMonitoringData" with useLocalChecks set to the boolean false
    And the monitoring client calls "GetMonitoringData" with an empty struct
    Then both answers hold the same data

  @XMLRPC-GMD-USELOCALCHECKS-STRINGS
  Scenario Outline: useLocalChecks accepts the string "<text>" like the boolean true
    When the monitoring client calls "GetMonitoringData" with useLocalChecks set to the boolean true
    And the monitoring client calls "GetMonitoringData" with useLocalChecks set to the string "<text>"
    Then both answers hold the same data
    And the answer is a struct whose member "data" holds the agent text

    Examples:
      | text |
      | true |
      | 1    |

  @XMLRPC-GMD-COMPLETE-TEXT
  Scenario Outline: GetMonitoringData returns the complete agent text with the local checks for useLocalChecks <useLocalChecks>
    When a monitoring host requests "/checkmk"
    And the monitoring client calls "GetMonitoringData" with <useLocalChecks>
    Then the answer is a struct whose member "data" holds the agent text
    And the XML-RPC data has the section "<<<local>>>" and all four blocks
    And the XML-RPC data is the agent text the data endpoint delivered

    Examples:
      | useLocalChecks                              |
      | useLocalChecks set to the boolean true      |
      | useLocalChecks set to the boolean false     |
      | an empty struct                             |
      | useLocalChecks set to the string "true"     |
      | useLocalChecks set to the string "1"        |

  @XMLRPC-GMD-COMPLETE-TEXT
  Scenario: For generated PBX states GetMonitoringData returns the complete agent text whatever useLocalChecks says
    Then for generated PBX states and useLocalChecks values GetMonitoringData returns the complete agent text with the local checks (10 runs)

  @XMLRPC-GMD-TILE-OFF
  Scenario: With the tile off GetMonitoringData returns data as the empty string
    Given the operator switches the endpoint tile off
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" is the string ""

  @XMLRPC-GMD-UNLICENSED
  Scenario: Without a licence GetMonitoringData returns data as the empty string
    Given the operator withdraws the module licence
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" is the string ""

  @XMLRPC-GMDX-RETURN
  Scenario: GetMonitoringDataXML called with an empty struct returns data holding a local document
    When the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then the answer is a struct whose member "data" holds an XML document with the root element "local"

  @XMLRPC-GMDX-TILE-OFF
  Scenario: With the tile off GetMonitoringDataXML returns <local></local>
    Given the operator switches the endpoint tile off
    When the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then the answer is a struct whose member "data" is the string "<local></local>"

  @XMLRPC-GMDX-UNLICENSED
  Scenario: Without a licence GetMonitoringDataXML returns <local></local>
    Given the operator withdraws the module licence
    When the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then the answer is a struct whose member "data" is the string "<local></local>"

  @XMLRPC-AD-RETURN
  Scenario: isActiveDirectoryEnabled returns activeDirectoryEnabled as the string true or false, not a boolean
    When the monitoring client calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"

  @XMLRPC-AD-NO-AUTH
  Scenario: isActiveDirectoryEnabled answers without any credentials
    When a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"

  @XMLRPC-AD-TILE-OFF
  Scenario: isActiveDirectoryEnabled still answers normally with the tile off
    When a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    And the operator switches the endpoint tile off
    And a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"
    And both answers are the same

  @XMLRPC-AD-UNLICENSED
  Scenario: isActiveDirectoryEnabled still answers normally without a licence
    When a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    And the operator withdraws the module licence
    And a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "true" or "false"
    And both answers are the same

  @XMLRPC-AD-MINIMAL
  Scenario: isActiveDirectoryEnabled reveals nothing but whether directory sign-in is active
    When a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct with no member but "activeDirectoryEnabled"

  @XMLRPC-AD-VALUE
  Scenario Outline: activeDirectoryEnabled is "<value>" while directory sign-in is <state>
    Given the operator sets directory sign-in <state>
    When a caller without credentials calls "isActiveDirectoryEnabled" with an empty struct
    Then the answer is a struct whose member "activeDirectoryEnabled" is the string "<value>"

    Examples:
      | state    | value |
      | active   | true  |
      | inactive | false |

  @XMLRPC-NOT-HOSTS-LIST
  Scenario: A caller not on the monitoring-hosts list is answered
    Given the operator sets the monitoring-hosts list to a foreign range only
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the answer is a struct whose member "data" holds the agent text
