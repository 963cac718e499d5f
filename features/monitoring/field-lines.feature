Feature: PBX sections in the line shapes that check plug-ins in the field parse
  field-line-shapes.md records the lines of the earlier monitoring component that public check
  plug-ins parse today; the spec promises that the PBX sections stay format-compatible with it
  (monitoring-endpoint-and-xmlrpc.md, Versioning). These scenarios read the agent text the way those
  plug-ins do: a section is cut out by its exact header line up to the next `<<<`, a row is found by
  `row.startswith(key)`, its value is the rest of the row after `key `, and the peer summary is split
  on single spaces. Values are compared with the JSON snapshot of the same target where the JSON
  carries them. Scenarios that change the PBX (generated states, a RAID, peers of every kind) need
  the target's control plane and are not verifiable without one.

  @FIELD-KEY-VALUE-LINES
  Scenario: Every row of a field key in the key/value sections is the key, one space and the value
    When a monitoring host requests "/checkmk"
    Then every row of a field key in pbx, pbx_accounts, pbx_database and pbx_java is the key, one space and the value

  @FIELD-KEY-VALUE-LINES
  Scenario: Field keys keep the key, one space and the value for generated PBX states
    Then for generated PBX states every row of a field key stays the key, one space and the value (25 runs)

  @FIELD-KEY-PREFIX-FREE
  Scenario: No key of a key/value section is a prefix of another key
    When a monitoring host requests "/checkmk"
    Then no key of pbx, pbx_accounts, pbx_database or pbx_java is a prefix of another key

  @FIELD-KEY-PREFIX-FREE
  Scenario: Keys stay prefix-free for generated PBX states with additive extension lines
    Then for generated PBX states no key of a key/value section is a prefix of another (25 runs)

  @FIELD-BARE-INTEGERS
  Scenario: Counts, limits, byte values and epoch milliseconds are bare integers
    When a monitoring host requests "/checkmk"
    Then every count, limit, byte value and epoch millisecond is a bare integer

  @FIELD-BARE-INTEGERS
  Scenario: Numbers stay bare integers for generated PBX states, unknown and fractional values included
    Then for generated PBX states every count, limit, byte value and epoch millisecond stays a bare integer (25 runs)

  @FIELD-PBX-KEYS
  Scenario: The pbx section carries the field keys in their value shapes
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the section <<<pbx>>> carries the field keys in their value shapes, with the RAID keys exactly when the JSON snapshot has a RAID

  @FIELD-PBX-KEYS
  Scenario: A configured RAID adds raid_status and raid_diagnosis, HEALTHY only for a healthy RAID
    Then with a degraded RAID the section <<<pbx>>> has raid_status and a raid_diagnosis other than HEALTHY, with a clean one HEALTHY

  @FIELD-PBX-VALUES-MATCH
  Scenario: Phones, licensed users and version in the pbx section equal the JSON snapshot
    Given the values the section "<<<pbx>>>" gives are made pairwise distinct where the target has a control plane
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then known_phones, online_phones, ip_changed_phones, license_max_users and pbx_version of <<<pbx>>> equal the JSON snapshot

  @FIELD-BACKUP-LINE
  Scenario: Every backup row has the field shape and the result key tells success
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then every row of <<<pbx_backups>>> is [TYPE]location epoch-ms result-key, and each target's newest run ends in successful exactly when the JSON snapshot says it succeeded

  @FIELD-BACKUP-LINE
  Scenario: Backup rows keep their shape and result keys for generated backup runs
    Then for generated backup runs every row is [TYPE]location epoch-ms result-key and ends in successful exactly for the runs that succeeded (25 runs)

  @FIELD-CHANNELS-MAX-LINE
  Scenario: The channels section is exactly "<N> max calls" and one row per active channel
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_channels>>> starts with exactly "<N> max calls" for the JSON channel maximum, followed by exactly the active channels, one per row

  @FIELD-CHANNELS-MAX-LINE
  Scenario: A channel counter written the field's way gets the maximum and the channel count in every named scenario
    Then a reader that takes the line ending in "max calls" as the maximum and counts every other line as a channel agrees with the JSON snapshot in every named scenario

  @FIELD-CHANNELS-MAX-LINE
  Scenario: A channel counter written the field's way gets the maximum and the channel count for generated channel states
    Then a reader that takes the line ending in "max calls" as the maximum and counts every other line as a channel agrees with the JSON snapshot for generated channel states (25 runs)

  @FIELD-CHANNELS-CALLS-APART
  Scenario: The calls of the last 5 minutes are a line of their own in <<<pbx_calls>>>, not in the channels section
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_calls>>> has "last_5min_calls <N>" for the JSON snapshot's calls of the last 5 minutes, and no row of <<<pbx_channels>>> carries them

  @FIELD-ACCOUNTS-LINES
  Scenario: The accounts section has total_accounts A/0 and the five counts of the JSON snapshot
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_accounts>>> has total_accounts <A>/0 and the five counts, equal to the JSON snapshot

  @FIELD-PEERS-SUMMARY
  Scenario: The peer listing has one row per peer and a summary line that agrees with it
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_peers>>> lists one row per peer of the JSON snapshot and a summary line that agrees with them

  @FIELD-PEERS-SUMMARY
  Scenario: The peer summary counts monitored and unmonitored peers, online and offline
    Given the operator sets peers of every kind: monitored online and offline, unmonitored online and offline
    When a monitoring host requests "/checkmk"
    Then the summary of <<<pbx_peers>>> says 6 sip peers, 2 monitored online, 1 monitored offline, 1 unmonitored online and 2 unmonitored offline

  @FIELD-SIP-PROVIDER-SUMMARY
  Scenario: The registration listing ends with "<N> SIP registrations." for the registrations listed
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_sip_provider>>> ends with "<N> SIP registrations." counting the registrations listed, one per trunk of the JSON snapshot

  @FIELD-MODULES-LINE
  Scenario: Each module row is name:version:vendor:<instances> for a module of the JSON snapshot
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then every row of <<<pbx_modules>>> is <name>:<version>:<vendor>:<<instances>>, one per module of the JSON snapshot

  @FIELD-DATABASE-CONNECTIONS
  Scenario: The database section keeps the four connection counters and adds the sizes after them
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_database>>> has the four connection counters, then the database size and the call-record size of the JSON snapshot as additional keys

  @FIELD-JAVA-LINES
  Scenario: The java section has the seven java keys with used/max memory in integers
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then <<<pbx_java>>> has the seven java keys, used/max memory as integers, equal to the JSON snapshot

  @FIELD-ADDITIVE-ONLY
  Scenario: The spec's newer content comes as additional rows with new keys
    When a monitoring host requests "/checkmk"
    And a monitoring host requests "/json"
    Then the spec's newer content of <<<pbx>>> and <<<pbx_database>>> is on additional 'key value' rows whose keys start with no earlier key

  @FIELD-ADDITIVE-ONLY
  Scenario: Changing the newer content leaves every earlier row unchanged
    Then when the operator changes server traffic, RTP quality and the database sizes, every row of an earlier key stays as it was
