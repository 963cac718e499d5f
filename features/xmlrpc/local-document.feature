@xml-rpc
Feature: The local document of GetMonitoringDataXML
  monitoring-endpoint-and-xmlrpc.md, "Resources and their fields / XML-RPC returns": a document with
  root `local` and one `entry` per sensor (attribute `key`; children `status`, `name`, `value`,
  `string`). Rounding and format of the `diskUtilization` value, the status of `update` without an
  update, of `phoneStatus` with no known phones and of `backup` after a successful run, the time format
  of `backupTime` and how an error text is recognised are not stated (XMLRPC-UNSPEC-ENTRY-VALUES): the
  scenarios stay clear of them. Declaration, encoding and entry order are not stated either
  (XMLRPC-UNSPEC-LOCAL-DOCUMENT).

  @XMLRPC-LOCAL-ENTRY
  Scenario: Every entry has a key and the children status 0-2, name, value and string
    When the monitoring client fetches the local document
    Then the local document has at least one entry
    And every entry has the attribute "key" and the children "status", "name", "value" and "string", with status 0, 1 or 2

  @XMLRPC-DISK-IS-RAM
  Scenario Outline: diskUtilization is the RAM use in percent (<total> bytes total, <available> available), not a disk figure
    Given the PBX has <total> bytes of RAM with <available> available and a root disk <disk> % full
    When the monitoring client fetches the local document
    Then there is exactly one "diskUtilization" entry
    And the value of the "diskUtilization" entry is <percent> % give or take rounding

    Examples:
      | total       | available   | disk | percent |
      | 8589934592  | 4294967296  | 10   | 50      |
      | 17179869184 | 2576980378  | 95   | 85      |

  @XMLRPC-DISK-IS-RAM
  Scenario: For generated memory figures diskUtilization follows RAM use, not disk use
    Then for generated memory and disk figures there is exactly one diskUtilization entry whose value is the RAM use in percent (25 runs)

  @XMLRPC-DISK-THRESHOLDS
  Scenario Outline: diskUtilization at <percent> % RAM use has status <status>
    Given the PBX uses exactly <percent> % of its RAM
    When the monitoring client fetches the local document
    Then the "diskUtilization" entry has status <status>

    Examples:
      | percent | status |
      | 0       | 0      |
      | 69      | 0      |
      | 70      | 1      |
      | 89      | 1      |
      | 90      | 2      |
      | 100     | 2      |

  @XMLRPC-DISK-THRESHOLDS
  Scenario: For generated RAM use diskUtilization is 0 below 70 %, 1 from 70 % and 2 from 90 %
    Then for generated RAM use the diskUtilization status is 0 below 70 %, 1 from 70 % and 2 from 90 % (25 runs)

  @XMLRPC-UPDATE-VALUE
  Scenario Outline: update is "<value>" when <situation>
    Given <situation>
    When the monitoring client fetches the local document
    Then there is exactly one "update" entry
    And the value of the "update" entry is "<value>"

    Examples:
      | situation                            | value |
      | no PBX update is available           | false |
      | a major PBX update is available      | true  |
      | a minor PBX update is available      | true  |

  @XMLRPC-UPDATE-MAJOR
  Scenario: update has status 2 when a major update is available
    Given a major PBX update is available
    When the monitoring client fetches the local document
    Then the "update" entry has status 2

  @XMLRPC-UPDATE-MINOR
  Scenario: update has status 1 when a minor update is available
    Given a minor PBX update is available
    When the monitoring client fetches the local document
    Then the "update" entry has status 1

  @XMLRPC-VERSION-PARTS
  Scenario: major, minor, build and revision are the parts of the installed PBX version
    When the monitoring client fetches the local document
    And a monitoring host requests "/json"
    Then there is exactly one entry each for "major", "minor", "build" and "revision"
    And their values joined by "." are the JSON field "pbxVersion"

  @XMLRPC-PHONE-STATUS
  Scenario Outline: phoneStatus is <status> with <online> of <known> phones online
    Given the PBX knows <known> phones of which <online> are online
    When the monitoring client fetches the local document
    Then there is exactly one "phoneStatus" entry
    And the "phoneStatus" entry has status <status>

    Examples:
      | known | online | status |
      | 148   | 0      | 2      |
      | 148   | 1      | 0      |
      | 148   | 148    | 0      |
      | 1     | 0      | 2      |

  @XMLRPC-PHONE-STATUS
  Scenario: For generated phone counts phoneStatus is 2 exactly when all known phones are offline
    Then for generated counts of known and online phones there is exactly one phoneStatus entry with status 2 exactly when none is online (25 runs)

  @XMLRPC-BACKUP-ENTRIES
  Scenario: Each backup target has a backup and a backupTime entry following its most recent run
    When the monitoring client fetches the local document
    And a monitoring host requests "/json"
    Then there are as many "backup" entries and as many "backupTime" entries as elements of the JSON list "backups"
    And every "backup" entry has status 0, 1 or 2
    And a backupTime entry changes when its target gets a newer run, and none changes for an older run

  @XMLRPC-BACKUP-FAILED
  Scenario: backup has status 2 when the most recent run failed
    Given the PBX has one backup target whose earlier run succeeded and whose most recent run failed
    When the monitoring client fetches the local document
    Then the "backup" entry has status 2

  @XMLRPC-BACKUP-ERROR-TEXT
  Scenario: backup has status 2 when its status message contains an error text
    Given the PBX has one backup target whose most recent run succeeded but whose status message reads "Error: backup medium not reachable"
    When the monitoring client fetches the local document
    Then the "backup" entry has status 2

  @XMLRPC-PROVIDER-ENTRIES
  Scenario: There is one provider entry per SIP provider, giving the registration of its trunk
    When the monitoring client fetches the local document
    And a monitoring host requests "/json"
    Then there are as many "provider" entries as elements of the JSON list "sipProviderEntries"
    And the statuses of the "provider" entries are 0 for each registered and 2 for each unregistered trunk of the JSON list "sipProviderEntries"

  @XMLRPC-PROVIDER-STATUS
  Scenario Outline: provider has status 0 for a registered and 2 for an unregistered trunk (<registrations>)
    Given the PBX has SIP trunks with the registrations <registrations>
    When the monitoring client fetches the local document
    Then the statuses of the "provider" entries are <statuses>

    Examples:
      | registrations             | statuses |
      | "registered"              | 0        |
      | "unregistered"            | 2        |
      | "registered", "unregistered", "registered" | 0, 2, 0 |
