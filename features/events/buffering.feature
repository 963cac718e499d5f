Feature: Buffering attention events while the link to the controller is down
  maintenance-and-fleet-api.md, "Limits": while the channel to the controller is down, up to 20
  messages are buffered and sent after reconnect. The link is cut and restored on the PBX's control
  plane; each message comes from its own module, so throttling plays no part. Scenarios stay clear of
  which messages are dropped beyond 20 and whether they count as suppressed
  (EVENT-UNSPEC-BUFFER-OVERFLOW), and of the transport (EVENT-UNSPEC-TRANSPORT).

  Background:
    Given a partner is released on the PBX of the partner's own site

  @EVENT-BUFFER-OFFLINE
  Scenario: Messages raised while the link is down arrive after the reconnect
    Given the link of the PBX of the partner's own site to the controller is cut
    When 3 modules each report one message on the partner's own site
    Then none of those 3 messages is among the partner's open messages
    When the link of the PBX of the partner's own site to the controller is restored
    Then all 3 of those messages are among the partner's open messages

  @EVENT-BUFFER-OFFLINE @EVENT-BUFFER-LIMIT
  Scenario: Exactly 20 messages raised while the link is down arrive after the reconnect
    Given the link of the PBX of the partner's own site to the controller is cut
    When 20 modules each report one message on the partner's own site
    And the link of the PBX of the partner's own site to the controller is restored
    Then all 20 of those messages are among the partner's open messages

  @EVENT-BUFFER-LIMIT
  Scenario: Of 27 messages raised during one outage no more than 20 arrive after the reconnect
    Given the link of the PBX of the partner's own site to the controller is cut
    When 27 modules each report one message on the partner's own site
    And the link of the PBX of the partner's own site to the controller is restored
    Then exactly 20 of those 27 messages are among the partner's open messages

  @EVENT-BUFFER-OFFLINE @EVENT-BUFFER-LIMIT
  Scenario: For a generated number of reports during an outage, exactly as many as the buffer holds arrive
    Then for a generated number of reports during an outage of the link, the smaller of that number and 20 arrive after the reconnect (10 runs)
