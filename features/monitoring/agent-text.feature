Feature: The snapshot as agent text
  monitoring-endpoint-and-xmlrpc.md, "Resources and their fields / Snapshot as agent text": four blocks
  in order (agent header, standard Linux sections, PBX sections, local checks). The spec lists the
  content of the PBX sections; their line shapes are those of the earlier component and are proved
  by the FIELD clauses (field-lines.feature, field-line-shapes.md). The keys of the header lines
  (MON-UNSPEC-AGENT-HEADER) and which Linux sections appear (MON-UNSPEC-LINUX-SECTIONS) are not
  stated. So these scenarios cut sections by their exact header lines, as consumers do, and check
  what a section gives by the values it carries: each value is compared with the same value in the
  JSON snapshot, or made distinctive through the control plane where no other format carries it.
  The lines are key/value lines, so each field's value must be on a line of its own (two fields with
  equal values need two lines), a breakdown entry (`by_app`, `by_db`) on its own line with its label,
  and a module's values on consecutive lines that name no other module. The one exception is
  `<<<pbx_channels>>>`, whose field shape (exactly `<N> max calls`, then one channel per line) has
  no key: there the maximum must be a number of its own; the calls of the last five minutes are in
  `<<<pbx_calls>>>` (field-line-shapes.md). Where the target has a
  control plane the fields are first given pairwise-distinct values, so no field can pass on
  another's value; the shape of the JSON breakdown elements is not stated (MON-UNSPEC-JSON-PATHS), so
  every scalar value inside an element counts. Values of -1 are skipped:
  how unknown values appear in agent text is not stated (MON-UNSPEC-SENTINEL-SCOPE). The "status
  message" of a backup may be the message text or the run's result key (the earlier component's
  lines carry result keys, test-vectors.md); either counts.

  @MON-TEXT-BLOCK-ORDER
  Scenario: The agent text has the agent header, Linux sections, PBX sections and local checks in this order
    When a monitoring host requests "/checkmk"
    Then the agent text starts with the section "<<<monitor_agent>>>"
    And its blocks come in the order agent header, standard Linux sections, PBX sections, local checks

  @MON-TEXT-AGENT-VERSION
  Scenario: The agent header gives the agent version 2.5.0p6
    When a monitoring host requests "/checkmk"
    Then the section "<<<monitor_agent>>>" has a line with the value "2.5.0p6"

  @MON-TEXT-AGENT-OS-HOSTNAME
  Scenario: The agent header gives AgentOS linux and the hostname of the JSON snapshot
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<monitor_agent>>>" has the line "AgentOS: linux"
    And the section "<<<monitor_agent>>>" has a line with the value of the JSON field "hostname"

  @MON-TEXT-LABELS
  Scenario: The agent header has labels as a JSON object with the OS family linux and the role pbx
    When a monitoring host requests "/checkmk"
    Then the agent header has the section "<<<labels:sep(0)>>>"
    And each line of the section "<<<labels:sep(0)>>>" is a JSON object of string values
    And the labels include the values "linux" and "pbx"

  @MON-TEXT-LINUX-SECTIONS
  Scenario: Standard Linux sections follow the agent header
    When a monitoring host requests "/checkmk"
    Then at least one standard Linux section follows the agent header, before the PBX sections

  @MON-TEXT-LINUX-SCRIPT-FAILURE
  Scenario: When the agent script cannot run, the Linux sections are missing and everything else is still delivered
    When a monitoring host requests "/checkmk"
    And the operator makes the agent script fail to run
    And a monitoring host requests "/checkmk"
    Then the agent text has no standard Linux sections
    And it still has the agent header, every PBX section and the local checks it had before

  @MON-TEXT-PBX
  Scenario: The pbx section gives appliance, version, licence, security, SIP health, phones, traffic and RTP quality
    Given the values the section "<<<pbx>>>" gives are made pairwise distinct where the target has a control plane
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the agent text has the section "<<<pbx>>>"
    And the section "<<<pbx>>>" gives the values of the JSON fields
      | applianceType | applianceSerialNumber | pbxVersion | sipStatusLocalhost | knownPhones | onlinePhones | ipChangedPhones | appWebSessions | appConnectedClients | currentLinkedCalls | currentParkedCalls | currentConferenceCalls | rtpAvgJitterMs | rtpMedianJitterMs | rtpAvgPacketLossPercent | rtpAvgRttMs | rtpEstimatedMos | rtpMedianMos |
    And the section "<<<pbx>>>" gives the value of the JSON field "licenseOwner" or "licenseMaxUsers"
    And the section "<<<pbx>>>" follows changes the operator makes to
      | the password check         |
      | the attack detection       |
      | the maximum jitter         |
      | the median packet loss     |
      | the maximum packet loss    |
      | the median round-trip time |
      | the maximum round-trip time |
      | the worst MOS              |

  @MON-TEXT-PBX-RAID
  Scenario: The pbx section has the RAID status only while RAID is configured
    Given the operator configures a RAID on the PBX
    When a monitoring host requests "/checkmk"
    Then the section "<<<pbx>>>" has a line that mentions RAID with the status "degraded"
    When the operator removes the RAID configuration
    And a monitoring host requests "/checkmk"
    Then no line of the section "<<<pbx>>>" mentions RAID

  @MON-TEXT-PBX-BACKUPS
  Scenario: pbx_backups gives location, time and status message per backup target
    Given the operator sets two backup targets with distinctive locations, times and status messages
    When a monitoring host requests "/checkmk"
    Then for each backup target the section "<<<pbx_backups>>>" has a line with its location, its time and its status message

  @MON-TEXT-PBX-CHANNELS
  Scenario: pbx_channels gives maximum channels, active channels and calls in the last 5 minutes
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<pbx_channels>>>" gives the values of the JSON fields, each as a number of its own
      | channelsMax |
    And the section "<<<pbx_channels>>>" gives the active channels of the JSON field "channelsActive"
    And the section "<<<pbx_calls>>>" gives the values of the JSON fields
      | channelsLast5MinCalls |

  @MON-TEXT-PBX-ACCOUNTS
  Scenario: pbx_accounts gives total, admin, active, available, ringing and unavailable accounts
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<pbx_accounts>>>" gives the values of the JSON fields
      | accountsTotal | accountsAdmin | accountsActive | accountsAvailable | accountsRinging | accountsUnavailable |

  @MON-TEXT-PBX-PEERS
  Scenario: pbx_peers gives name, IP address and latency per SIP peer
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then for each element of the JSON list "peers" the section "<<<pbx_peers>>>" has a line with its "name", "ipaddr" and "lastms"

  @MON-TEXT-PBX-SIP-PROVIDER
  Scenario: pbx_sip_provider gives the registration status per trunk
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then for each element of the JSON list "sipProviderEntries" the section "<<<pbx_sip_provider>>>" has a line with its "uri"
    And the line of each trunk in the section "<<<pbx_sip_provider>>>" changes when the operator flips that trunk's registration

  @MON-TEXT-PBX-MODULES
  Scenario: pbx_modules lists the installed modules with version, vendor and instance names
    Given the values the section "<<<pbx_modules>>>" gives are made pairwise distinct where the target has a control plane
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/xml"
    Then for each "module" of the XML snapshot the section "<<<pbx_modules>>>" gives its name, version, vendor and instance names

  @MON-TEXT-PBX-DATABASE
  Scenario: pbx_database gives database size and call-record size in bytes
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<pbx_database>>>" gives the values of the JSON fields
      | databaseSize | cdrSize |

  @MON-TEXT-PBX-DB-CONNECTIONS
  Scenario: pbx_db_connections gives total, active, idle, idle-in-transaction and max with by_app and by_db
    Given the values the section "<<<pbx_db_connections>>>" gives are made pairwise distinct where the target has a control plane
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<pbx_db_connections>>>" gives the values of the JSON fields
      | dbConnTotal | dbConnActive | dbConnIdle | dbConnIdleInTx | dbConnMax |
    And the section "<<<pbx_db_connections>>>" has lines with "by_app" and "by_db"
    And every element of the JSON list "dbConnByApplication" has its own line with "by_app" in the section "<<<pbx_db_connections>>>"
    And every element of the JSON list "dbConnByDatabase" has its own line with "by_db" in the section "<<<pbx_db_connections>>>"

  @MON-TEXT-PBX-JAVA
  Scenario: pbx_java gives VM name and version, heap, non-heap and maximum memory
    Given the values the section "<<<pbx_java>>>" gives are made pairwise distinct where the target has a control plane
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section "<<<pbx_java>>>" gives the values of the JSON fields
      | javaVmName | javaVersion | javaHeapUsed | javaNonHeapUsed | javaMaxMemory |
