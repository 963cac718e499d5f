Feature: One shared, cached snapshot behind every format and XML-RPC
  monitoring-endpoint-and-xmlrpc.md, "What the service does": agent text, XML and JSON and the XML-RPC
  queries draw on one shared snapshot, cached for 30 seconds by default; the lifetime is configurable.
  The scenarios change the PBX state through the control plane and move its clock, so a value that
  appears tells a cached snapshot from a fresh one. The exact 30 s instant is left out: "within 30 s"
  and "after that" meet there. A target's clock may keep running between the steps (`simulate
  --clock running`), so fixed waits inside the lifetime leave a few seconds of slack; the generated
  cases reach its last millisecond on a frozen clock.

  @MON-FORMATS-SAME-SNAPSHOT
  Scenario: Agent text, XML and JSON of one snapshot agree on account counts, maximum channels and database sizes
    Given the operator sets distinctive account counts, maximum channels and database sizes
    When a monitoring host fetches the agent text, the XML snapshot and the JSON snapshot within one cache lifetime
    Then the three formats agree on account counts, maximum channels and database sizes

  @MON-FORMATS-SAME-SNAPSHOT
  Scenario: The formats agree for generated PBX states
    Then for generated account counts, maximum channels and database sizes the three formats of one snapshot agree (10 runs)

  @MON-SHARED-SNAPSHOT
  Scenario: GET /checkmk and then GetMonitoringData deliver the same agent text within one cache lifetime
    When a monitoring host requests "/checkmk"
    And the PBX state changes while the snapshot is cached
    And the monitoring client calls "GetMonitoringData" with an empty struct
    Then the XML-RPC data is the agent text the data endpoint delivered

  @MON-SHARED-SNAPSHOT
  Scenario: GetMonitoringData and then GET /checkmk deliver the same agent text within one cache lifetime
    When the monitoring client calls "GetMonitoringData" with an empty struct
    And the PBX state changes while the snapshot is cached
    And a monitoring host requests "/checkmk"
    Then the XML-RPC data is the agent text the data endpoint delivered

  @MON-CACHE-DEFAULT
  Scenario: Within 30 seconds the same snapshot is served; after that a fresh one is taken
    Given the operator resets the PBX to its starting state
    When a monitoring host requests "/json"
    And the PBX state changes while the snapshot is cached
    And 27 seconds pass on the PBX clock
    And a monitoring host requests "/json"
    Then it receives the same snapshot as the first time
    When 3.001 seconds pass on the PBX clock
    And a monitoring host requests "/json"
    Then it receives a fresh snapshot that shows the change

  @MON-CACHE-DEFAULT
  Scenario: For generated waiting times, requests within 30 s get the cached snapshot and later ones a fresh one
    Given the operator resets the PBX to its starting state
    Then for generated waiting times the snapshot is cached for 30 seconds from its creation (10 runs)

  @MON-CACHE-CONFIGURABLE
  Scenario Outline: A configured lifetime of <lifetime> s replaces the 30 s
    Given the operator sets the snapshot cache lifetime to <lifetime> seconds
    When a monitoring host requests "/json"
    And the PBX state changes while the snapshot is cached
    And <within> seconds pass on the PBX clock
    And a monitoring host requests "/json"
    Then it receives the same snapshot as the first time
    When <more> seconds pass on the PBX clock
    And a monitoring host requests "/json"
    Then it receives a fresh snapshot that shows the change

    Examples: shorter than 30 s: fresh before 30 s have passed
      | lifetime | within | more |
      | 10       | 9      | 2    |

    Examples: longer than 30 s: still cached after 30 s
      | lifetime | within | more |
      | 60       | 45     | 16   |

  @MON-CACHE-CONFIGURABLE
  Scenario: For generated lifetimes the snapshot is cached exactly as long as configured
    Then for generated cache lifetimes and waiting times the snapshot is cached for the configured lifetime (10 runs)
