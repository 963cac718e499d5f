Feature: A command's effect shows on the data endpoint and in XML-RPC
  maintenance-and-fleet-api.md, part A, "What the service does": an accepted command runs in the
  background; the PBX's other faces (monitoring-endpoint-and-xmlrpc.md: the port-6556 data endpoint
  and the XML-RPC queries) read the same PBX, so its effect shows there once the shared snapshot
  cache has expired. The PBX clock is moved past the cache lifetime through the control plane. What
  each command does beyond its name is the simulator's documented choice
  (MAINT-UNSPEC-COMMAND-PARAMETERS; docs/maintenance-api.md): the scenarios check only what the name
  says (calls hung up, backups deleted, trunks registered, the target version installed, call data
  deleted).

  @MAINT-EXEC-ASYNC @MAINT-POST-ACCEPTED
  Scenario: After HangupAllCalls the data endpoint and XML-RPC show no active channels
    Given the PBX has 5 active channels
    When a monitoring host requests "/json"
    Then the JSON snapshot lists 5 active channels
    When the API client posts "HangupAllCalls" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the command has run and the snapshot cache has expired
    And a monitoring host requests "/json"
    Then the JSON snapshot lists no active channels
    When a monitoring host requests "/xml"
    Then the XML snapshot's channels element has no channel
    When the monitoring client calls "GetMonitoringData" with an empty struct
    Then the agent text from XML-RPC names none of the channels that were active

  @MAINT-EXEC-ASYNC @MAINT-POST-ACCEPTED
  Scenario: After DeleteBackups none of the earlier backup runs shows on the data endpoint or in XML-RPC
    Given the PBX has 2 backup targets
    When a monitoring host requests "/json"
    Then the JSON snapshot shows backup times
    When the API client posts "DeleteBackups" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the command has run and the snapshot cache has expired
    And a monitoring host requests "/json"
    Then the JSON snapshot's backups show none of the backup times seen before
    When a monitoring host requests "/checkmk"
    Then the section "<<<pbx_backups>>>" shows none of the backup times seen before
    When the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then no backup-time entry of the local document shows a backup time seen before

  @MAINT-EXEC-ASYNC @MAINT-POST-ACCEPTED
  Scenario: After ReRegisterTrunks every SIP provider is registered on the data endpoint and in GetMonitoringDataXML
    Given the PBX has SIP trunks with the registrations "unregistered", "registered" and "unregistered"
    When the API client posts "ReRegisterTrunks" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the command has run and the snapshot cache has expired
    And the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then every provider entry of the local document has status 0
    When a monitoring host requests "/json"
    Then every SIP provider entry of the JSON snapshot is registered

  @MAINT-EXEC-ASYNC @MAINT-POST-ACCEPTED @MAINT-PARAM-VERSION
  Scenario: After UpdatePbx the new version shows on the data endpoint and in GetMonitoringDataXML
    Given the PBX offers the update versions "12.7.0.4" and "13.1.0.2"
    When the API client posts "UpdatePbx" with the body '{"version":"13.1.0.2"}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the command has run and the snapshot cache has expired
    And a monitoring host requests "/json"
    Then the JSON field "pbxVersion" is "13.1.0.2"
    When the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then the local document's version entries major, minor, build and revision give "13.1.0.2"

  @MAINT-EXEC-ASYNC @MAINT-POST-ACCEPTED @MAINT-PARAM-CONFIRMED
  Scenario: After DeleteCallData with confirmed true the CDR size shrinks on the data endpoint
    Given the PBX has something for "DeleteCallData" to act on
    When a monitoring host requests "/json"
    Then the JSON field "cdrSize" is above 0
    When the API client posts "DeleteCallData" with the body '{"confirmed":true}'
    Then the API answers 200 with the JSON body '{"status":"ok"}'
    When the command has run and the snapshot cache has expired
    And a monitoring host requests "/json"
    Then the JSON field "cdrSize" is below its earlier value
