Feature: Who may read the data endpoint
  monitoring-endpoint-and-xmlrpc.md, "Authentication / Data endpoint" and "Errors": no sign-in; access
  is limited by the monitoring-hosts list (IPv4 addresses or CIDR ranges). Every connection is also
  checked at application level: an address on no entry is accepted and closed without a reply. With no
  active entry the port stays closed from outside. How entries become active and what a network-level
  block looks like are not stated (MON-UNSPEC-HOSTS-LIST); the harness's client addresses count as
  "outside" (the simulator makes no loopback exception).

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
