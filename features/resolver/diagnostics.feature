Feature: Diagnostics: the search log and the settings test
  web-resolver.md, "Endpoints / Diagnostics". The search log is read as the search-requests tab shows
  it, through the PBX control plane (`GET /resolver/search-log`); a line "shows" a fact when its text
  or its data carries it. The formatters turn the matched text into something the body does not
  hold (`<\1>`, `[\1 \1]`), so a line that merely echoes the body cannot pass for a parser hit;
  the second parser's hit is used in no field mapping, so only a logged parser hit can show it.
  Left open and not asserted: the format of the log and its wording (RESOLVER-UNSPEC-LOG-TEXTS), and
  the encoding rules of the URI (RESOLVER-UNSPEC-URL-ENCODING), so the encoded URI is compared with
  what the endpoint received.

  Background:
    Given a customer endpoint
    And the PBX's country code is "49"

  @RESOLVER-DIAG-LOG
  Scenario: The search log shows the URL, the HTTP status and the parser hits of a resolution, step by step
    Given the PBX has a provider for the customer endpoint with the parsers
      | matcher               | formatter  |
      | "name":"([^"]*)"      | <\1>       |
      | "company":"([^"]*)"   | [\1 \1]    |
    When the PBX resolves the caller number "030 1234567"
    Then the search log of the resolution shows, in this order, the URL of the path "/lookup", the HTTP status 200 and the parser hits "<Anna Schmidt>" and "[Beispiel GmbH Beispiel GmbH]"

  @RESOLVER-DIAG-LOG
  Scenario: The search log shows the status of a failed lookup
    Given the customer endpoint answers with status 503 and the default record
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the search log of the resolution shows, in this order, the URL of the path "/lookup" and the HTTP status 503

  @RESOLVER-DIAG-LOG-EXPERT
  Scenario: In expert mode the search log also shows the redirects and the encoded URI
    Given the operator switches the resolver to expert mode
    And the customer endpoint answers the path "/lookup" with a 302 redirect to "/found/here"
    And the PBX has a provider for the customer endpoint with
      | URL        | /lookup?city={city}&tel={tel} |
      | field city | Bad Säckingen                 |
    When the PBX resolves the caller number "030 1234567"
    Then the search log of the resolution shows the redirect with status 302 to "/found/here"
    And the search log of the resolution shows the encoded URI the customer endpoint received first

  @RESOLVER-DIAG-TEST-ONE-PROVIDER @RESOLVER-TRIGGER-SETTINGS-TEST
  Scenario: The settings test resolves the test number against the one provider under test
    Given a customer endpoint "B"
    And the PBX has a provider for the customer endpoint
    And the PBX has a provider "second" for the customer endpoint "B"
    When the operator runs the settings test of the provider "second" with the number "030 1234567"
    Then the customer endpoint "B" receives a request for the path "/lookup"
    And the customer endpoint received no request
