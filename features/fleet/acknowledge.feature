Feature: Acknowledging module messages
  maintenance-and-fleet-api.md, part B: "Acknowledge result", "States and transitions / Attention
  entries" and "Endpoints / Interface B" (POST /api/v1/sites/{siteId}/attention/{attentionId}/acknowledge).
  An acknowledgement belongs to the caller's partner access. Scenarios stay clear of the
  acknowledgedAt of a repeated acknowledge (FLEET-UNSPEC-REPEAT-ACK-TIME), of answers to bodies
  other than a JSON object sent as application/json (FLEET-UNSPEC-ACK-BODY), of the unit in which
  the 1000 characters count (FLEET-UNSPEC-CHARACTER-COUNT: comments at the limit are ASCII, generated
  ones stay within the limit in every unit) and of the meaning of `own` (FLEET-UNSPEC-OWN).

  @FLEET-ACK-ENDPOINT @FLEET-ACK-FIRST @FLEET-ACK-RESULT-SCHEMA @FLEET-ACK-RESULT-IDS @FLEET-ACK-COMMENT-OPTIONAL
  Scenario: The first acknowledge of an open message with the body {} answers 200 with alreadyAcknowledged false
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" with the body "{}"
    Then the controller answers 200
    And the controller's answer is an acknowledge result as the schema describes it
    And the acknowledge result names the attentionId and the siteId of "Lüfter ausgefallen"
    And the acknowledge result says alreadyAcknowledged false

  @FLEET-ACK-REPEAT @FLEET-ACK-HISTORY-ONCE
  Scenario: Acknowledging again answers alreadyAcknowledged true, the message stays acknowledged and no second history entry appears
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen"
    Then the acknowledge result says alreadyAcknowledged false
    And the history of the partner's own site holds exactly 1 entry for "Lüfter ausgefallen"
    When the partner acknowledges "Lüfter ausgefallen"
    Then the controller answers 200
    And the acknowledge result says alreadyAcknowledged true
    And "Lüfter ausgefallen" is not among the partner's open messages
    And the history of the partner's own site holds exactly 1 entry for "Lüfter ausgefallen"

  @FLEET-ACK-PARTNER-WIDE
  Scenario: An acknowledgement applies to every account of the partner's access
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen"
    Then "Lüfter ausgefallen" is not among the partner's colleague's open messages
    When the partner's colleague acknowledges "Lüfter ausgefallen"
    Then the controller answers 200
    And the acknowledge result says alreadyAcknowledged true

  @FLEET-ACK-OTHER-PARTNERS-UNAFFECTED
  Scenario: Another partner of the same site keeps the message open and does not see the acknowledgement
    Given an open module message "USV meldet Batteriefehler" on the shared site
    When the partner acknowledges "USV meldet Batteriefehler" with the comment "Nordlicht kümmert sich"
    Then "USV meldet Batteriefehler" is among the other partner's open messages
    And the other partner's history of the shared site has no entry for "USV meldet Batteriefehler"
    When the other partner acknowledges "USV meldet Batteriefehler"
    Then the controller answers 200
    And the acknowledge result says alreadyAcknowledged false

  @FLEET-ACK-LEAVES-OPEN-LIST
  Scenario: An acknowledged message leaves attentionEvents, and "events" leaves attention with the last open one
    Given the partner's own site has no open message for the partner
    And an open module message "Leitung 1 gestört" on the partner's own site
    And an open module message "Leitung 2 gestört" on the partner's own site
    When the partner acknowledges "Leitung 1 gestört"
    Then "Leitung 1 gestört" is not among the partner's open messages
    And the partner's own site shows the finding "events"
    When the partner acknowledges "Leitung 2 gestört"
    Then "Leitung 2 gestört" is not among the partner's open messages
    And the partner's own site does not show the finding "events"

  @EVENT-REPORT-REOPENS @FLEET-ACK-AFTER-REOPEN
  Scenario: A new report reopens an acknowledged message under the same id, and it can be acknowledged again
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    And the partner acknowledges "Amt gestört"
    Then "Amt gestört" is not among the partner's open messages
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then "Amt gestört" is among the partner's open messages under the same id as before
    When the partner acknowledges "Amt gestört"
    Then the acknowledge result says alreadyAcknowledged false
    And the history of the partner's own site holds exactly 2 entries for "Amt gestört"

  @FLEET-ACK-COMMENT-MAX
  Scenario: A comment of exactly 1000 characters is accepted and stored for the history
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" with a comment of 1000 ASCII characters
    Then the controller answers 200
    And the history entry of "Lüfter ausgefallen" has that comment

  @FLEET-ACK-COMMENT-MAX
  Scenario: Generated comments of up to 1000 characters are accepted and stored for the history
    Then generated comments of up to 1000 characters are accepted and stored for the history (10 runs)
