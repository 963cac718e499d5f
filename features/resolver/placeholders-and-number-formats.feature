Feature: URL placeholders, URL encoding and number formats
  web-resolver.md, "Placeholders in the URL" and "Number formats". `{tel}` and `{<fieldId>}` are
  filled by plain string replacement, then path and query are URL-encoded, except the plus sign of
  a canonical number. Left open and not asserted: the exact encoding rules after replacement (space
  as %20 or +, reserved characters, already-encoded input, prefixes and suffixes;
  RESOLVER-UNSPEC-URL-ENCODING), so a value is compared after percent-decoding and may use either
  form of a space; empty placeholders (RESOLVER-UNSPEC-EMPTY-PLACEHOLDER), so every field has a
  value; numbers other than national ones and whether 00xx drops the national leading zero
  (RESOLVER-UNSPEC-NUMBER-CASES), so only national numbers are resolved and 00xx may take either
  form.

  Background:
    Given a customer endpoint
    And the PBX's country code is "49"

  @RESOLVER-PH-TEL @RESOLVER-FORMAT-DEFAULT @RESOLVER-FMT-PLUS @RESOLVER-URL-PLUS
  Scenario: With the format left at its default, {tel} is the canonical number and its plus arrives as a literal +
    Given the PBX has a provider for the customer endpoint with
      | URL | /lookup?tel={tel} |
    When the PBX resolves the caller number "030 1234567"
    Then the raw query the customer endpoint received is "tel=+49301234567"

  @RESOLVER-PH-TEL @RESOLVER-FMT-0
  Scenario: With format 0, {tel} is a leading 0 and the national number
    Given the PBX has a provider for the customer endpoint with
      | URL           | /lookup?tel={tel} |
      | number format | 0                 |
    When the PBX resolves the caller number "+49 30 1234567"
    Then the raw query the customer endpoint received is "tel=0301234567"

  @RESOLVER-PH-TEL @RESOLVER-FMT-00
  Scenario: With format 00xx, {tel} is 00, the country code and the national number
    Given the PBX has a provider for the customer endpoint with
      | URL           | /lookup?tel={tel} |
      | number format | 00xx              |
    When the PBX resolves the caller number "030 1234567"
    Then the raw query the customer endpoint received is "tel=0049301234567" or "tel=00490301234567"

  @RESOLVER-FMT-COUNTRY-CODE
  Scenario Outline: A national number is converted with the configured country code <country code>
    Given the PBX's country code is "<country code>"
    And the PBX has a provider for the customer endpoint with
      | URL           | /lookup?tel={tel} |
      | number format | +xx               |
    When the PBX resolves the caller number "0301234567"
    Then the raw query the customer endpoint received is "tel=+<country code>301234567"

    Examples:
      | country code |
      | 49           |
      | 43           |
      | 1            |
      | 352          |

  @RESOLVER-PH-TEL @RESOLVER-FMT-PLUS @RESOLVER-FMT-00 @RESOLVER-FMT-0 @RESOLVER-FMT-COUNTRY-CODE @RESOLVER-URL-PLUS
  Scenario: For generated national numbers, country codes and formats, {tel} has the format's shape and the forms convert into each other
    Then for generated national numbers, country codes, input forms and formats {tel} reaches the endpoint in the chosen format (25 runs)

  @RESOLVER-PH-FIELD
  Scenario: Field placeholders are replaced by the values of the same-named configuration fields
    Given the PBX has a provider for the customer endpoint with
      | URL                  | /crm/{tenant}/lookup?user={username}&pw={password}&key={securityToken}&tel={tel} |
      | field tenant         | acme-01                                                                          |
      | user name            | anna.schmidt                                                                     |
      | password             | Geheim_2024                                                                      |
      | security token       | tok-9f8e7d                                                                       |
    When the PBX resolves the caller number "030 1234567"
    Then the request target the customer endpoint received is "/crm/acme-01/lookup?user=anna.schmidt&pw=Geheim_2024&key=tok-9f8e7d&tel=+49301234567"

  @RESOLVER-PH-FIELD @RESOLVER-URL-ENCODING
  Scenario: For generated field values the replacement is literal and reaches the endpoint intact
    Then for generated field ids and values the placeholders are replaced literally, never as patterns or placeholders again (20 runs)

  @RESOLVER-PH-PREFIX-SUFFIX
  Scenario: A field's prefix and suffix surround its value in the URL
    Given the PBX has a provider for the customer endpoint with
      | URL              | /lookup?tel={tel}&key={apikey} |
      | field apikey     | s3cr3t                         |
      | prefix of apikey | v2.                            |
      | suffix of apikey | -live                          |
    When the PBX resolves the caller number "030 1234567"
    Then the raw query the customer endpoint received is "tel=+49301234567&key=v2.s3cr3t-live"

  @RESOLVER-PH-PREFIX-SUFFIX
  Scenario: For generated prefixes, values and suffixes the replacement is prefix, value, suffix
    Then for generated prefixes, values and suffixes a field placeholder becomes prefix, value and suffix (15 runs)

  @RESOLVER-PH-POST-URL @RESOLVER-METHOD-POST
  Scenario: Placeholders are replaced in the URL of a POST provider too
    Given the PBX has a provider for the customer endpoint with
      | method       | POST                                       |
      | URL          | /crm/{tenant}/lookup/{tel}?user={username} |
      | field tenant | acme-01                                    |
      | user name    | anna.schmidt                               |
    When the PBX resolves the caller number "030 1234567"
    Then every request the customer endpoint received used the method "POST"
    And the request target the customer endpoint received is "/crm/acme-01/lookup/+49301234567?user=anna.schmidt"

  @RESOLVER-URL-ENCODING
  Scenario: A value with spaces, quotes, braces and umlauts reaches the endpoint percent-encoded, in the path and in the query
    Given the PBX has a provider for the customer endpoint with
      | URL        | /city/{city}/lookup?tel={tel}&city={city} |
      | field city | Bad "Säckingen" {Süd}<1>                  |
    When the PBX resolves the caller number "030 1234567"
    Then the request target the customer endpoint received holds only characters allowed in a URL
    And the value of the field "city" reached the endpoint intact in the path and in the query

  @RESOLVER-URL-ENCODING @RESOLVER-URL-PLUS
  Scenario: For generated values with characters not allowed in a URL, they arrive percent-encoded and decode to the value, while the number keeps its +
    Then for generated values with characters not allowed in a URL the request target holds only URL characters and decodes to the values (20 runs)
