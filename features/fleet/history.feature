Feature: History of acknowledgements
  maintenance-and-fleet-api.md, part B: "History entry (acknowledgement)" and "Endpoints / Interface
  B" (GET /api/v1/sites/{siteId}/history). Scenarios stay clear of query parameters and paging
  (FLEET-UNSPEC-HISTORY-PAGING), the status of a successful answer (FLEET-UNSPEC-HISTORY-STATUS: any
  2xx), the order of entries (FLEET-UNSPEC-ORDERING), the meaning of `own` (FLEET-UNSPEC-OWN: only
  that it is a boolean) and entries of other kinds. `createdAt` is taken as the time of the
  acknowledgement when it lies within one second of the acknowledge result's `acknowledgedAt`.

  @FLEET-HISTORY-ENDPOINT @FLEET-HISTORY-SCHEMA @FLEET-HISTORY-CHANNEL-CONSOLE @FLEET-HISTORY-ATTENTION @FLEET-HISTORY-COMMENT
  Scenario: An acknowledgement through REST writes an entry with the message's fields, channel console and the comment
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" with the comment "Lüfter getauscht"
    And the partner requests the history of the partner's own site
    Then the controller's answer is successful
    And the controller's answer is a history list as the schema describes it
    And the history entry of "Lüfter ausgefallen" is an acknowledgement entry as the schema describes it
    And the history entry of "Lüfter ausgefallen" carries the message's id, module, subject and severity
    And the history entry of "Lüfter ausgefallen" has the channel "console"
    And the history entry of "Lüfter ausgefallen" has the comment "Lüfter getauscht"
    And the history entry of "Lüfter ausgefallen" has the site's name and the time of the acknowledgement

  @FLEET-HISTORY-COMMENT
  Scenario: An acknowledgement without a comment has the comment null
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" with the body "{}"
    Then the history entry of "Lüfter ausgefallen" has the comment null

  @FLEET-HISTORY-ACTOR
  Scenario: actor is the acknowledging person's name at the time, and a later rename leaves the entry alone
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    And the fleet operator renames the partner's account to "Anna Albers"
    When the partner acknowledges "Lüfter ausgefallen"
    And the fleet operator renames the partner's account to "Anna Albers-Berg"
    Then the history entry of "Lüfter ausgefallen" has the actor "Anna Albers"

  @FLEET-HISTORY-OWN-PARTNER-ONLY
  Scenario: The history lists only the acknowledgements of the caller's own partner access
    Given an open module message "USV meldet Batteriefehler" on the shared site
    When the partner acknowledges "USV meldet Batteriefehler" with the comment "Nordlicht: Batterie bestellt"
    And the other partner acknowledges "USV meldet Batteriefehler" with the comment "Südwind: Techniker informiert"
    Then the partner's history of the shared site has an entry with the comment "Nordlicht: Batterie bestellt"
    And the partner's history of the shared site has no entry with the comment "Südwind: Techniker informiert"
    And the other partner's history of the shared site has an entry with the comment "Südwind: Techniker informiert"
    And the other partner's history of the shared site has no entry with the comment "Nordlicht: Batterie bestellt"
