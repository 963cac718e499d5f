Feature: Who may read the data endpoint
  monitoring-endpoint-and-xmlrpc.md, "Authentication / Data endpoint" and "Errors": no sign-in; access
  is limited by the monitoring-hosts list (IPv4 addresses or CIDR ranges). Every connection is also
  checked at application level: an address on no entry is accepted and closed without a reply. With no
  active entry the port stays closed from outside. How entries become active and what a network-level
  block looks like are not stated (MON-UNSPEC-HOSTS-LIST); the harness's client addresses count as
  "outside" (the simulator makes no loopback exception). The edge examples connect from the first and
  last address of a listed range and from its neighbours just outside: an entry whose mask is one bit
  too short or too long, or a bound off by one, lets a neighbour in or keeps an edge out. They use the
  target's `pbx.edgeClientAddresses` (in 127/8 for the simulator).

  @MON-AUTH-NO-SIGNIN
  Scenario: A listed host receives the snapshot without any credentials
    When a monitoring host connects without sending a request
    Then it receives the agent text
    When a monitoring host requests "/json"
    Then the answer is a successful HTTP response
    And it receives the JSON snapshot

  @MON-AUTH-HOSTS-CIDR
  Scenario Outline: A client matching the entry "<entry>" is served
    Given the operator sets the monitoring-hosts list to <entry>
    When a monitoring host connects without sending a request
    Then it receives the agent text

    Examples:
      | entry                                                    |
      | the listed client address                                |
      | the listed client address as a /32 range                 |
      | the /24 range around the listed client address           |
      | the /8 range around the listed client address            |
      | the /0 range                                             |
      | a foreign range followed by the listed client address    |

  @MON-AUTH-HOSTS-CIDR
  Scenario: A client inside any generated CIDR entry of the list is served
    Then a monitoring host inside a generated CIDR entry, listed among entries that do not match it, is served every time (15 runs)

  @MON-AUTH-HOSTS-CIDR @MON-AUTH-UNLISTED-CLOSED
  Scenario Outline: Of a listed /<prefix> range the first and last address are served and the addresses just outside it are closed without a reply
    Given the operator lists only a /<prefix> range with client addresses of the harness at its edges
    When a monitoring host connects from each of these addresses without sending a request
    Then the addresses inside the listed range receive the agent text
    And the addresses outside it are accepted and closed without any reply

    Examples:
      | prefix |
      | 32     |
      | 31     |
      | 25     |
      | 24     |
      | 17     |
      | 10     |

  @MON-AUTH-HOSTS-CIDR @MON-AUTH-UNLISTED-CLOSED
  Scenario: The widest range that ends at one of two adjacent addresses serves that address and not the next
    Given the operator lists only the widest range that ends at the lower of two adjacent client addresses of the harness
    When a monitoring host connects from each of these addresses without sending a request
    Then the addresses inside the listed range receive the agent text
    And the addresses outside it are accepted and closed without any reply

  @MON-AUTH-HOSTS-CIDR @MON-AUTH-UNLISTED-CLOSED
  Scenario: The widest range that starts at one of two adjacent addresses serves that address and not the one before
    Given the operator lists only the widest range that starts at the upper of two adjacent client addresses of the harness
    When a monitoring host connects from each of these addresses without sending a request
    Then the addresses inside the listed range receive the agent text
    And the addresses outside it are accepted and closed without any reply

  @MON-AUTH-UNLISTED-CLOSED
  Scenario: A silent connection from an address on no entry is accepted and closed without any reply
    Given the operator lists only the harness's listed client address as monitoring host
    When an unlisted host connects without sending a request
    Then the connection is accepted and closed without any reply

  @MON-AUTH-UNLISTED-CLOSED
  Scenario: An HTTP request from an address on no entry is accepted and closed without any reply
    Given the operator lists only the harness's listed client address as monitoring host
    When an unlisted host requests "/json"
    Then the connection is accepted and closed without any reply

  @MON-AUTH-UNLISTED-CLOSED
  Scenario: A client outside every generated entry is accepted and closed without any reply
    Then a monitoring host outside every entry of a generated monitoring-hosts list is accepted and closed without any reply every time (15 runs)

  @MON-AUTH-EMPTY-LIST
  Scenario Outline: With <list> the port stays closed from outside, even with the tile on
    Given the endpoint tile is on and the licence is valid
    And the operator sets the monitoring-hosts list to <list>
    When a monitoring host connects without sending a request
    Then the connection is refused or dropped

    Examples:
      | list                                                |
      | no entries                                          |
      | only inactive entries, one of them the client's     |
