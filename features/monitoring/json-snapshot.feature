Feature: The snapshot as JSON
  monitoring-endpoint-and-xmlrpc.md, "Resources and their fields / Snapshot as JSON (`GET /json`)":
  hierarchical JSON with the field names of the internal snapshot model; numbers that cannot be
  determined are `-1`. The nesting of the fields is not stated (MON-UNSPEC-JSON-PATHS), so a field
  counts as present wherever it sits in the hierarchy; the complete field list is not shown
  (MON-UNSPEC-JSON-FIELDS), so extra fields are never a failure.

  @MON-JSON-OBJECT
  Scenario: The JSON snapshot is a hierarchical JSON object
    When a monitoring host requests "/json"
    Then the body is a hierarchical JSON object
    And it receives the JSON snapshot

  @MON-JSON-SENTINEL
  Scenario Outline: A number the PBX cannot determine (<what>) carries the sentinel -1
    Given the PBX cannot determine <what>
    When a monitoring host requests "/json"
    Then the JSON fields <fields> are the number -1

    Examples:
      | what                   | fields                                   |
      | the Linux uptime       | "uptimeLinuxMs"                          |
      | the memory figures     | "osMemTotalBytes", "osMemAvailableBytes" |
      | the database size      | "databaseSize"                           |
      | the runtime heap usage | "javaHeapUsed"                           |

  @MON-JSON-APPLIANCE
  Scenario: The JSON snapshot has the appliance and system fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | applianceType | applianceSerialNumber | pbxVersion | pbxBuildDate | systemManufacturer | hostname | uptimeLinuxMs | debugMode |

  @MON-JSON-LICENCE
  Scenario: The JSON snapshot has the licence and update fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | licenseOwner | licenseMaxUsers | updateAvailable | pbxLatestVersion | serverLicenseValidUntil |

  @MON-JSON-SIP
  Scenario: The JSON snapshot has the SIP and phone fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | sipStatusLocalhost | knownPhones | onlinePhones | ipChangedPhones | peers | sipProviderEntries |

  @MON-JSON-PEERS
  Scenario: Each peers element has name, ipaddr and lastms, with lastms as text
    When a monitoring host requests "/json"
    Then every element of the JSON list "peers" has the members "name", "ipaddr" and "lastms"
    And "lastms" is a string in every element of the JSON list "peers"

  @MON-JSON-SIP-PROVIDER-ENTRIES
  Scenario: Each sipProviderEntries element has index as integer, uri as string and registered as boolean
    When a monitoring host requests "/json"
    Then every element of the JSON list "sipProviderEntries" has the typed members
      | member     | type    |
      | index      | integer |
      | uri        | string  |
      | registered | boolean |

  @MON-JSON-TELEPHONY
  Scenario: The JSON snapshot has the telephony fields, channelsActive a list of strings
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | channelsMax | channelsActive | channelsLast5MinCalls | currentLinkedCalls | currentParkedCalls | currentConferenceCalls |
    And the JSON field "channelsActive" is a list of strings

  @MON-JSON-USERS
  Scenario: The JSON snapshot has the user account and session fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | accountsTotal | accountsAdmin | accountsActive | accountsAvailable | accountsRinging | accountsUnavailable | appWebSessions | appConnectedClients |

  @MON-JSON-RTP
  Scenario: The JSON snapshot has the RTP quality fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | rtpActiveChannels | rtpAvgJitterMs | rtpMedianJitterMs | rtpAvgPacketLossPercent | rtpAvgRttMs | rtpEstimatedMos | rtpMedianMos |

  @MON-JSON-OS
  Scenario: The JSON snapshot has the OS and resource fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | osLoad1min | osLoad5min | osLoad15min | osMemTotalBytes | osMemAvailableBytes | osDiskRootTotalBytes | osDiskRootFreeBytes |

  @MON-JSON-DATABASE
  Scenario: The JSON snapshot has the database fields and the two connection breakdown lists
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | databaseSize | cdrSize | dbConnTotal | dbConnActive | dbConnIdle | dbConnIdleInTx | dbConnMax |
    And the JSON fields "dbConnByApplication" and "dbConnByDatabase" are lists

  @MON-JSON-RUNTIME
  Scenario: The JSON snapshot has the runtime fields
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | javaVmName | javaVersion | javaHeapUsed | javaHeapMax | javaNonHeapUsed | javaMaxMemory |

  @MON-JSON-BACKUPS
  Scenario: The JSON snapshot has the backups list and lastBackupAgeMinutes
    When a monitoring host requests "/json"
    Then the JSON snapshot has the fields
      | backups | lastBackupAgeMinutes |
    And every element of the JSON list "backups" has the members "location", "time", "message" and "runInfo"

  @MON-JSON-MODULES
  Scenario: The JSON snapshot has the modules list with name, version, vendor and instances
    When a monitoring host requests "/json"
    Then every element of the JSON list "modules" has the members "name", "version", "vendor" and "instances"
    And "instances" is a list in every element of the JSON list "modules"
