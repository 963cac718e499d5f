Feature: ETag and conditional requests of the site list
  maintenance-and-fleet-api.md, part B, "Endpoints / Interface B": GET /api/v1/sites carries an ETag;
  If-None-Match with the last one gives 304 without content while nothing changed; new messages and
  acknowledgements change it. Scenarios stay clear of the ETag's form, whether it differs per
  caller and whether findings other than `events` change it (FLEET-UNSPEC-ETAG), and of rate limits
  (FLEET-UNSPEC-RATE-LIMITS).

  @FLEET-SITES-NOT-MODIFIED
  Scenario: With the last ETag in If-None-Match and nothing changed the answer is 304 without content
    When the partner requests the site list
    And the partner requests the site list again with the last ETag in If-None-Match
    Then the controller answers 304 without content

  @FLEET-SITES-ETAG-NEW-MESSAGE
  Scenario: A new module message changes the ETag
    When the partner requests the site list
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    And the partner requests the site list again with the last ETag in If-None-Match
    Then the controller answers 200 with an ETag other than the last one

  @FLEET-SITES-ETAG-ACK
  Scenario: An acknowledgement changes the ETag
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner requests the site list
    And the partner acknowledges "Lüfter ausgefallen"
    And the partner requests the site list again with the last ETag in If-None-Match
    Then the controller answers 200 with an ETag other than the last one

  @FLEET-SITES-ETAG-NEW-MESSAGE @FLEET-SITES-ETAG-ACK @FLEET-SITES-NOT-MODIFIED
  Scenario: Over generated sequences of new messages, acknowledgements and pauses the ETag changes exactly with them
    Then over generated sequences of new messages, acknowledgements and pauses the ETag changes after every message and acknowledgement and stays otherwise (12 runs)
