Feature: Resolver requests: what triggers them, their method, the GET headers and the POST body
  web-resolver.md, "What the service does", "Search provider configuration (type HTTP)" and
  "Endpoints / Request by the module". The PBX is the HTTP client: the steps start a recording
  customer endpoint, point a provider of the PBX at it through the control plane, make the PBX
  resolve a number and check what the endpoint recorded. The exact user-agent, accept and
  accept-language strings, header order and name casing (RESOLVER-UNSPEC-HEADER-STRINGS) and the
  other headers of a POST (RESOLVER-UNSPEC-POST-HEADERS) are left open, so the scenarios check what
  the values must say, not how they say it; header names are matched without regard to case.

  Background:
    Given a customer endpoint

  @RESOLVER-TRIGGER-RESOLUTION
  Scenario: Resolving the number of an incoming call sends a request to the provider's endpoint
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"

  @RESOLVER-TRIGGER-SETTINGS-TEST
  Scenario: The settings test of a provider sends a request to its endpoint
    Given the PBX has a provider for the customer endpoint
    When the operator runs the settings test of the provider with the number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"

  @RESOLVER-TRIGGER-UI-INTEGRATION
  Scenario: A query of the UI integration sends a request to the provider's endpoint
    Given the PBX has a provider for the customer endpoint
    When the UI integration queries the number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"

  @RESOLVER-METHOD-DEFAULT
  Scenario: A provider whose method is left at its default sends GET
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then every request the customer endpoint received used the method "GET"

  @RESOLVER-METHOD-POST
  Scenario: A provider set to POST sends POST
    Given the PBX has a provider for the customer endpoint with
      | method | POST |
    When the PBX resolves the caller number "030 1234567"
    Then every request the customer endpoint received used the method "POST"

  @RESOLVER-GET-USER-AGENT
  Scenario: A GET request carries the user-agent of a desktop browser of profile version 107
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the GET request carries a user-agent of a desktop browser whose version is 107

  @RESOLVER-GET-ACCEPT
  Scenario: A GET request carries an accept header for HTML and XML
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the GET request carries an accept header that accepts HTML and XML

  @RESOLVER-GET-ACCEPT-ENCODING
  Scenario: A GET request carries accept-encoding "gzip, deflate, br"
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the GET request carries accept-encoding "gzip, deflate, br" exactly, up to case and white space

  @RESOLVER-GET-ACCEPT-LANGUAGE
  Scenario: A GET request asks for German first, then English
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the GET request carries an accept-language that names German first and English next

  @RESOLVER-GET-NO-CACHE
  Scenario: A GET request carries cache-control and pragma set to no-cache
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the GET request carries the header "cache-control" with the value "no-cache"
    And the GET request carries the header "pragma" with the value "no-cache"

  @RESOLVER-POST-CONTENT-TYPE
  Scenario: A POST request declares its body as application/json
    Given the PBX has a provider for the customer endpoint with
      | method | POST |
    When the PBX resolves the caller number "030 1234567"
    Then the POST request has the media type "application/json"

  @RESOLVER-POST-BODY
  Scenario Outline: The POST body is one JSON member "query" holding the number in format <format>
    Given the PBX's country code is "49"
    And the PBX has a provider for the customer endpoint with
      | method        | POST     |
      | number format | <format> |
    When the PBX resolves the caller number "030 1234567"
    Then the POST body is a JSON object whose only member "query" is the string "<number>"

    Examples:
      | format | number       |
      | +xx    | +49301234567 |
      | 0      | 0301234567   |

  @RESOLVER-POST-BODY
  Scenario: For generated national numbers, country codes and formats the POST body holds exactly the number
    Then for generated national numbers, country codes and formats a POST provider sends only the member "query" with the number (15 runs)
