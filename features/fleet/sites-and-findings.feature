Feature: Site list and findings of the fleet controller
  maintenance-and-fleet-api.md, part B: "Site (interface B, entry of the site list)", "Endpoints /
  Interface B", "Authentication / Interface B" and the findings of "States and transitions /
  Attention entries". Scenarios stay clear of the fields of a site beyond the four named
  (FLEET-UNSPEC-SITE-FIELDS), the order of the site list (FLEET-UNSPEC-ORDERING), the criteria behind
  the findings (FLEET-UNSPEC-FINDING-CRITERIA: a scenario only makes an obvious cause on a PBX and
  removes it again) and the status of a successful history request (FLEET-UNSPEC-HISTORY-STATUS:
  any 2xx).

  @FLEET-SITES-LIST @FLEET-BASE-PATH @FLEET-AUTH-BASIC
  Scenario: A partner signed in with e-mail and password gets its site list with an ETag under /api/v1
    When the partner requests the site list
    Then the controller answers 200
    And the controller's answer carries an ETag
    And the controller's answer is a site list as the schema describes it

  @FLEET-SITE-SCHEMA
  Scenario: Every site has an id, a display name and attention keys, and its id is the siteId of the paths
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner requests the site list
    Then the controller's answer is a site list as the schema describes it
    And every site in the list has a string id, a string displayName and a list of attention strings
    And the id of every listed site is accepted as siteId by the history endpoint
    And the id of the partner's own site is accepted as siteId when the partner acknowledges "Lüfter ausgefallen"

  @FLEET-SITE-ATTENTION-KEYS
  Scenario: Every attention key of every visible site is one of the seven findings keys
    When the partner requests the site list
    Then every attention key in the site list is one of "offline", "trunks", "backupFailed", "backupMissing", "version", "modules" and "events"

  @FLEET-JSON-UTF8
  Scenario: The controller answers JSON in UTF-8 and keeps a UTF-8 comment unchanged
    Given an open module message "Prüfung fällig – Größe überschritten" on the partner's own site
    When the partner requests the site list
    Then the controller's answer is JSON encoded in UTF-8
    When the partner acknowledges "Prüfung fällig – Größe überschritten" with the comment "Geprüft: Lüfter getauscht, Störung behoben ✓ (Ørsted-Straße)"
    Then the controller answers 200
    And the controller's answer is JSON encoded in UTF-8
    When the partner requests the history of the partner's own site
    Then the controller's answer is JSON encoded in UTF-8
    And the history entry of "Prüfung fällig – Größe überschritten" has the comment "Geprüft: Lüfter getauscht, Störung behoben ✓ (Ørsted-Straße)"

  @FLEET-AUTH-VISIBLE-SITES
  Scenario: The site list holds the partner's own sites and the sites it manages on behalf of another partner
    Given the fleet operator adds a site "Lübeck Hafen" owned by the partner
    And the fleet operator adds a site "Rostock Werft" owned by the other partner and managed by the partner
    And the fleet operator adds a site "Flensburg Lager" owned by the other partner alone
    When the partner requests the site list
    Then the site list contains the added sites "Lübeck Hafen" and "Rostock Werft"
    And the site list does not contain the added site "Flensburg Lager"

  @FLEET-AUTH-FOREIGN-SITE-HIDDEN
  Scenario: A site on which the partner's access holds no right is missing from its site list
    Given the foreign site is in the other partner's site list
    When the partner requests the site list
    Then the foreign site is not in the site list

  @FLEET-AUTH-VIEWER-READS
  Scenario: An account with role Viewer reads the site list and the history
    When the partner's viewer requests the site list
    Then the controller answers 200
    And the controller's answer is a site list as the schema describes it
    When the partner's viewer requests the history of the partner's own site
    Then the controller's answer is successful
    And the controller's answer is a history list as the schema describes it

  @FLEET-FINDINGS-SELF-CLEARING @FLEET-SITE-ATTENTION-KEYS
  Scenario Outline: The finding "<key>" appears while the PBX has <cause> and leaves by itself once the cause is gone
    Given the partner's own site shows no finding "<key>"
    When the PBX of the partner's own site gets <cause>
    Then the partner's own site shows the finding "<key>"
    And every attention key in the site list is one of "offline", "trunks", "backupFailed", "backupMissing", "version", "modules" and "events"
    When the cause is removed on the PBX of the partner's own site
    Then the finding "<key>" leaves the partner's own site

    Examples:
      | key           | cause                                 |
      | offline       | its link to the controller cut        |
      | trunks        | an unregistered SIP trunk             |
      | backupFailed  | a failed most recent backup run       |
      | backupMissing | no backup target at all               |
      | version       | an available major update             |
      | modules       | a module instance in critical state   |

  @FLEET-FINDINGS-NOT-ACKNOWLEDGEABLE
  Scenario: A finding has no attention item, and no acknowledge removes it
    Given the partner's own site shows no finding "trunks"
    When the PBX of the partner's own site gets an unregistered SIP trunk
    Then the partner's own site shows the finding "trunks"
    And no open message of the partner's own site stands for the finding "trunks"
    When the partner tries to acknowledge "trunks" as an attentionId on the partner's own site
    And an open module message "Lüfter ausgefallen" on the partner's own site
    And the partner acknowledges every open message of the partner's own site
    Then the partner's own site still shows the finding "trunks"
