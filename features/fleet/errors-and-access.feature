Feature: Sign-in, access rights and error answers of the fleet controller
  maintenance-and-fleet-api.md, part B: "Authentication / Interface B", "Error object (interface B)"
  and "Errors / Interface B". Scenarios stay clear of the body of 401 and 404 answers and of
  `WWW-Authenticate` (FLEET-UNSPEC-401-404-BODY: only that no `error` code comes with them), of the
  German wording (FLEET-UNSPEC-MESSAGE-TEXTS: `message` must read as German text, checked by common
  German words and letters), of the unit of the 1000 characters (FLEET-UNSPEC-CHARACTER-COUNT:
  generated comments exceed 1000 in every unit), of when an item is invisible
  (FLEET-UNSPEC-INVISIBLE-ITEM: the fleet operator limits a right through the control plane), and
  of 403 or 404 for a Viewer addressing a foreign item (FLEET-UNSPEC-403-VS-404).

  @FLEET-ERR-401-NOT-SIGNED-IN
  Scenario Outline: A request for <endpoint> <how> is answered 401 without an error code
    When a client <how> requests <endpoint>
    Then the controller answers 401 without an error code

    Examples:
      | how                                 | endpoint                                        |
      | without credentials                 | the site list                                   |
      | without credentials                 | the history of the partner's own site           |
      | without credentials                 | an acknowledge on the partner's own site        |
      | with the credentials of no account  | the site list                                   |
      | with the credentials of no account  | the history of the partner's own site           |
      | with the credentials of no account  | an acknowledge on the partner's own site        |

  @FLEET-ERR-401-WRONG-PASSWORD
  Scenario Outline: A request for <endpoint> with a wrong password of an existing account is answered 401 without an error code
    When a client with a wrong password of the partner's account requests <endpoint>
    Then the controller answers 401 without an error code

    Examples:
      | endpoint                                 |
      | the site list                            |
      | the history of the partner's own site    |
      | an acknowledge on the partner's own site |

  @FLEET-AUTH-IDP-ONLY
  Scenario Outline: The identity-provider account signed in with <password> is answered 401
    When the identity-provider account requests the site list with <password>
    Then the controller answers 401 without an error code

    Examples:
      | password                        |
      | an empty password               |
      | its e-mail address as password  |
      | the partner's password          |

  @FLEET-AUTH-IDP-ONLY
  Scenario: Every generated password of the identity-provider account is answered 401
    Then every generated password of the identity-provider account is answered 401 (15 runs)

  @FLEET-AUTH-VIEWER-ACK-403 @FLEET-ERROR-OBJECT
  Scenario: A Viewer who acknowledges is answered 403 forbidden with a German message, and nothing is acknowledged
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's viewer acknowledges "Lüfter ausgefallen"
    Then the controller answers 403 with the error "forbidden" and a German message
    And "Lüfter ausgefallen" is among the partner's open messages
    And the history of the partner's own site holds exactly 0 entries for "Lüfter ausgefallen"

  @FLEET-ERR-400-COMMENT-TOO-LONG @FLEET-ERROR-OBJECT
  Scenario Outline: A comment of <length> ASCII characters is answered 400 invalid_request with a German message, and nothing is acknowledged
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" with a comment of <length> ASCII characters
    Then the controller answers 400 with the error "invalid_request" and a German message
    And "Lüfter ausgefallen" is among the partner's open messages

    Examples:
      | length |
      | 1001   |
      | 1500   |
      | 20000  |

  @FLEET-ERR-400-COMMENT-TOO-LONG
  Scenario: Generated comments longer than 1000 characters are answered 400 invalid_request, and nothing is acknowledged
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    Then every generated comment longer than 1000 characters is answered 400 invalid_request without acknowledging "Lüfter ausgefallen" (15 runs)

  @FLEET-ERR-404-ITEM-UNKNOWN
  Scenario: An acknowledge of an attentionId that does not exist is answered 404
    When the partner acknowledges an attentionId that does not exist on the partner's own site
    Then the controller answers 404

  @FLEET-ERR-404-ITEM-UNKNOWN
  Scenario: Acknowledges of generated attentionIds that do not exist are answered 404
    Then every generated attentionId that does not exist is answered 404 on the partner's own site (20 runs)

  @FLEET-ERR-404-ITEM-OTHER-SITE
  Scenario: An acknowledge of an existing message under another site's path is answered 404
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen" under the path of the partner's second site
    Then the controller answers 404
    And "Lüfter ausgefallen" is among the partner's open messages

  @FLEET-ERR-404-ITEM-INVISIBLE
  Scenario: An acknowledge of a message invisible to the partner's access is answered 404
    Given the fleet operator limits the partner's right on the shared site to the module "Telefonie"
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the shared site
    Then "Sicherung fehlgeschlagen" is among the other partner's open messages
    And "Sicherung fehlgeschlagen" is not among the partner's open messages
    When the partner acknowledges "Sicherung fehlgeschlagen"
    Then the controller answers 404

  @FLEET-ERR-404-SITE-FOREIGN
  Scenario: An acknowledge on a foreign site is answered 404, exactly as on a site that does not exist
    Given an open module message "Aufzug Notruf gestört" on the foreign site as the other partner sees it
    When the partner acknowledges "Aufzug Notruf gestört"
    Then the controller answers 404
    And the answer is the same as for an acknowledge of that attentionId on a site that does not exist
    And "Aufzug Notruf gestört" is among the other partner's open messages

  @FLEET-AUTH-FOREIGN-SITE-HISTORY-404
  Scenario: The history of a foreign site is answered 404, exactly as for a site that does not exist
    Given the foreign site is in the other partner's site list
    When the partner requests the history of the foreign site
    Then the controller answers 404
    And the answer is the same as for the history of a site that does not exist

  @FLEET-ERR-404-SITE-UNKNOWN
  Scenario: Acknowledge and history requests for a siteId that does not exist are answered 404
    When the partner requests the history of a site that does not exist
    Then the controller answers 404
    When the partner acknowledges attentionId 1 on a site that does not exist
    Then the controller answers 404

  @FLEET-ERR-404-SITE-UNKNOWN
  Scenario: Acknowledge and history requests for generated siteIds that do not exist are answered 404
    Then acknowledge and history requests for every generated siteId that does not exist are answered 404 (20 runs)
