Feature: When the data endpoint runs, and where
  monitoring-endpoint-and-xmlrpc.md, "States and transitions" and "Limits": at module start the
  endpoint listens on the configured port (default 6556) when the endpoint tile is on (the default)
  and the licence is valid; on a busy port it tries the next port once. Switching the tile off or
  losing the licence stops it. The endpoint is a TCP server on IPv4 only. Which port counts as the
  next one is not stated (MON-UNSPEC-NEXT-PORT); the scenarios only rely on the configured port + 1
  being the one a busy configuration must not get past. The firewall (MON-STATE-FIREWALL) is told
  apart from the application-level check (MON-AUTH-UNLISTED-CLOSED: accepted, then closed without a
  reply) by what it does to an unlisted host: the connection is never established (refused or
  dropped). "No data" alone would pass through the application-level check and prove nothing about
  the firewall. This is observable only where the unlisted address reaches the PBX (its web server,
  which the list does not restrict) over a path the firewall acts on; over loopback or within the
  PBX host that scenario is not verifiable. The firewall rules themselves are read through the
  control plane (`GET /monitoring/status`, `firewallOpenFor`): the simulator models the rules the
  module opens, its own sockets apply only the application-level check.

  @MON-PORT-DEFAULT
  Scenario: The data endpoint listens on TCP port 6556 by default
    Given a PBX whose data endpoint port is left at its default
    When a monitoring host connects to port 6556 without sending a request
    Then it receives the agent text

  @MON-STATE-TILE-DEFAULT-ON
  Scenario: The endpoint tile is on by default
    Given the operator resets the PBX to its starting state
    Then the endpoint tile is on
    And the data endpoint is listening
    When a monitoring host connects without sending a request
    Then it receives the agent text

  @MON-STATE-LISTENING
  Scenario: At module start with the tile on, a valid licence and a free port, the endpoint listens on the configured port
    Given the operator configures a free port for the data endpoint
    And the endpoint tile is on and the licence is valid
    When the module starts
    Then the data endpoint listens on the configured port
    When a monitoring host connects to the configured port without sending a request
    Then it receives the agent text

  @MON-PORT-CONFIGURABLE
  Scenario: A configured port is where the endpoint then listens
    When the operator configures a free port for the data endpoint
    Then the data endpoint listens on the configured port
    When a monitoring host connects to the configured port without sending a request
    Then it receives the agent text

  @MON-STATE-PORT-FALLBACK
  Scenario: With the configured port busy and the next one free, the endpoint listens on the next port and warns in the module UI
    Given another program listens on a port of the PBX host whose next port is free
    When the operator configures that busy port for the data endpoint
    Then the data endpoint listens on a port other than the busy one
    And the module UI shows a warning it did not show before
    When a monitoring host connects to the port the endpoint listens on without sending a request
    Then it receives the agent text

  @MON-STATE-BOTH-PORTS-BUSY
  Scenario: With the configured port and the next one busy, the endpoint stays inactive and tries no further port
    Given another program listens on a port of the PBX host and on the port after it
    When the operator configures that busy port for the data endpoint
    Then the data endpoint is inactive and listens on no port
    And nothing listens on the port after the two busy ones

  @MON-STATE-TILE-OFF
  Scenario: Switching the endpoint tile off stops the endpoint and connections then fail
    Given a monitoring host that connects without sending a request receives the agent text
    When the operator switches the endpoint tile off
    Then the data endpoint is stopped
    When a monitoring host connects without sending a request
    Then the connection is refused or dropped

  @MON-STATE-UNLICENSED
  Scenario: Without a valid licence the endpoint does not run and connections fail
    Given a monitoring host that connects without sending a request receives the agent text
    When the operator withdraws the module licence
    Then the data endpoint is stopped
    When a monitoring host connects without sending a request
    Then the connection is refused or dropped

  @MON-STATE-FIREWALL
  Scenario: While the endpoint listens the PBX firewall is opened for exactly the active monitoring hosts, and for none once it stops
    Given the endpoint tile is on and the licence is valid
    Then for every generated monitoring-hosts list the PBX firewall is open for exactly its active entries (15 runs)
    When the operator switches the endpoint tile off
    Then the PBX firewall is open for no host

  @MON-STATE-FIREWALL
  Scenario: While the endpoint listens, the firewall lets a listed host through and keeps an unlisted one from connecting
    Given the operator lists only the harness's listed client address as monitoring host
    When a monitoring host connects without sending a request
    Then it receives the agent text
    When an unlisted host that reaches the PBX's web server connects without sending a request
    Then the connection is refused or dropped

  @MON-IPV4-ONLY
  Scenario: The data endpoint accepts no IPv6 connection
    When a monitoring host connects over IPv6 to the data endpoint's port
    Then the IPv6 connection is not established
    When a monitoring host connects without sending a request
    Then it receives the agent text
