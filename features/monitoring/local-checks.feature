Feature: Local checks in the agent text
  monitoring-endpoint-and-xmlrpc.md, "Resources and their fields / Snapshot as agent text", block 4:
  section `<<<local>>>`, one line per service of the shape
  `<status 0-2> "<service name>" <metrics as name=value joined by |> <text>`, with the service names of
  the reference module. Status rules, metrics and texts of each check, the separator in
  `PBX Module<Name>`, `PBX Backup<target>` and `PBX SIP Provider<URI>`, and whether
  `PBX Log Status Support/PBX` and `Licensed/Used iQueues` are one service or several are not stated
  (MON-UNSPEC-LOCAL-DETAILS): those names are matched by their fixed part only. A line without metrics
  may carry `-`, as consumers accept (test-vectors.md).

  @MON-LOCAL-LINE-SHAPE
  Scenario: Every local-check line has the shape status, quoted service name, metrics, text
    When a monitoring host requests "/checkmk"
    Then the agent text has a section "<<<local>>>" with at least one line
    And every line of the local checks has the shape <status 0-2> "<service name>" <metrics> <text>

  @MON-LOCAL-LINE-SHAPE
  Scenario Outline: Local-check lines keep their shape in the "<scenario>" state of the PBX
    Given the operator puts the PBX into the "<scenario>" scenario
    When a monitoring host requests "/checkmk"
    Then the agent text has a section "<<<local>>>" with at least one line
    And every line of the local checks has the shape <status 0-2> "<service name>" <metrics> <text>

    Examples:
      | scenario           |
      | all-phones-offline |
      | backup-failed      |
      | trunk-unregistered |
      | raid-degraded      |
      | update-major       |
      | update-minor       |
      | ram-warning        |
      | ram-critical       |
      | values-unknown     |
      | large              |

  @MON-LOCAL-LINE-SHAPE
  Scenario: Local-check lines keep their shape whatever the names of instances, backup targets and trunks
    Then for generated names of module instances, backup locations and SIP trunks every local-check line keeps its shape (25 runs)

  @MON-LOCAL-UPDATE-SERVICES
  Scenario: The local checks include PBX update, PBX version and Update contract valid until
    When a monitoring host requests "/checkmk"
    Then the local checks include the services
      | PBX update                  |
      | PBX version                 |
      | Update contract valid until |

  @MON-LOCAL-LICENCE-SERVICES
  Scenario: The local checks include the five licence services
    When a monitoring host requests "/checkmk"
    Then the local checks include the services
      | Licensed/Used full users                  |
      | Licensed/Used light users                 |
      | Licensed/Used terminal server permissions |
      | Licensed/Used app premium permissions     |
    And the local checks include services whose names start with
      | Licensed/Used iQueues |

  @MON-LOCAL-SYSTEM-SERVICES
  Scenario: The local checks include log status, all phones offline, hardware ID and fax queue
    When a monitoring host requests "/checkmk"
    Then the local checks include the services
      | PBX All Phones Offline |
      | PBX Hardware ID        |
      | PBX Fax Queue          |
    And the local checks include services whose names start with
      | PBX Log Status |

  @MON-LOCAL-MODULE-SERVICES
  Scenario: There is one PBX Module service per module instance
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/xml"
    Then there is one local check named "PBX Module" followed by the instance name for each "instance" of the XML snapshot's modules

  @MON-LOCAL-BACKUP-SERVICES
  Scenario: There is one PBX Backup service per backup target
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the number of local checks whose names start with "PBX Backup" equals the number of elements of the JSON list "backups"

  @MON-LOCAL-BACKUP-SERVICES
  Scenario Outline: There is one PBX Backup service for each of <count> backup targets
    Given the PBX has <count> backup targets
    When a monitoring host requests "/checkmk"
    Then there are <count> local checks whose names start with "PBX Backup"

    Examples:
      | count |
      | 1     |
      | 4     |

  @MON-LOCAL-SIP-PROVIDER-SERVICES
  Scenario: There is one PBX SIP Provider service per SIP trunk
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then for each element of the JSON list "sipProviderEntries" there is exactly one local check whose name starts with "PBX SIP Provider" and contains its "uri"
    And the number of local checks whose names start with "PBX SIP Provider" equals the number of elements of the JSON list "sipProviderEntries"
