Feature: A fleet in shards, as the controller sees it
  A fleet controller can run alone while its PBXs run in shards, each shard linking its slice of
  the fleet's PBXs to the controller over one multiplexed connection with keys derived from the
  fleet secret (`simulate --fleet-only` and `--shard i/N`, docs/fleet-controller.md). The harness starts the
  controller and its shards itself, so the scenario runs against the embedded simulator only; a
  target's own controller is not verifiable here. Findings other than `offline` and how the link
  carries its lines stay out of it (EVENT-UNSPEC-TRANSPORT).

  @FLEET-FINDINGS-SELF-CLEARING @FLEET-SITES-LIST
  Scenario: When every shard of a fleet runs, every site is linked exactly once and none stays offline
    Given a fleet controller alone for 6 PBXs, to be run in 2 shards
    Then the site lists of that fleet show each of its 6 sites once, each with the finding "offline"
    When every shard of that fleet runs
    Then the controller sees every site of that fleet linked exactly once
    And the site lists of that fleet show each of its 6 sites once, none with the finding "offline"
