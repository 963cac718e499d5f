Feature: Outcomes of a resolution: resolved, no result, failed, fallbacks, cache and address book
  web-resolver.md, "States and transitions", "Errors" and "Search provider configuration (type HTTP)".
  The caller-ID result, the address book and the search log are read through the PBX control plane;
  whether a request was sent is read from the reference endpoints' recordings. Left open and not
  asserted: the order in which several providers are asked and whether in parallel
  (RESOLVER-UNSPEC-PROVIDER-ORDER), so in the fallback scenario every enabled provider answers
  without a result and each must have been asked, in any order; whether other providers and the address book serve as fallback
  after a failed lookup (RESOLVER-UNSPEC-FAILURE-FALLBACK), so failure scenarios have one provider
  and an empty address book; cache lifetime, key and whether a hit sends a request
  (RESOLVER-UNSPEC-CACHE), so only misses are asserted; the wording of the 4xx hint
  (RESOLVER-UNSPEC-LOG-TEXTS), so a failed lookup is shown not to have evaluated the body by what
  the PBX reports of its evaluation (parser hits, index variables, result), not by log wording; and
  the form of the number an address-book entry is saved or looked up under, so entries are seeded in
  every number format.

  Background:
    Given a customer endpoint
    And the PBX's country code is "49"

  @RESOLVER-RESOLVED
  Scenario: A 2xx answer with one non-empty parser result among empty ones resolves the number
    Given the customer endpoint answers with the body
      """
      {"title": "", "name": "Anna Schmidt"}
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher             | formatter |
      | "title": "([^"]*)"  | \1        |
      | "fax": "([^"]*)"    | \1        |
      | "name": "([^"]*)"   | \1        |
    And the provider's field mappings are "", "{2}" and ""
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID shows the name "Anna Schmidt"

  @RESOLVER-RESOLVED
  Scenario: For generated 2xx statuses and parser outcomes with at least one non-empty result the number resolves
    Then for generated 2xx statuses and parsers of which at least one yields a value the number is resolved (15 runs)

  @RESOLVER-NO-RESULT
  Scenario: A 2xx answer whose parsers all come up empty gives no result and the message of the spec
    Given the customer endpoint answers with the body
      """
      {"result": [], "name": ""}
      """
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the lookup gave no result
    And the search log of the resolution contains "Query did not provide any search results"

  @RESOLVER-NO-RESULT-NEXT-PROVIDER
  Scenario: When every enabled provider answers without a result, each of them is asked; a disabled one is not
    Given a customer endpoint "B"
    And a customer endpoint "C"
    And the customer endpoint answers with the body
      """
      {}
      """
    And the customer endpoint "B" answers with the body
      """
      {}
      """
    And the PBX has a provider for the customer endpoint
    And the PBX has a provider "disabled" for the customer endpoint "C" with
      | enabled | off |
    And the PBX has a provider "second" for the customer endpoint "B"
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"
    And the customer endpoint "B" receives a request for the path "/lookup"
    And the customer endpoint "C" received no request

  @RESOLVER-NO-RESULT-ADDRESS-BOOK
  Scenario: With the address-book fallback on, a number no provider resolves is taken from the address book
    Given the customer endpoint answers with the body
      """
      {}
      """
    And the address-book fallback is switched on
    And the PBX address book holds "Clara Clausen" for the number "030 1234567" in every number format
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"
    And the caller ID shows the name "Clara Clausen"

  @RESOLVER-NO-RESULT-ADDRESS-BOOK
  Scenario: With the address-book fallback off, the address book is not used
    Given the customer endpoint answers with the body
      """
      {}
      """
    And the address-book fallback is switched off
    And the PBX address book holds "Clara Clausen" for the number "030 1234567" in every number format
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the lookup gave no result

  @RESOLVER-NON-2XX-FAILED
  Scenario Outline: A <status> answer fails the lookup and its body is not evaluated, although the parser would match
    Given the PBX address book is empty
    And the customer endpoint answers with status <status> and the default record
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the lookup failed
    And the PBX did not evaluate the body: no parser hit, index variable, name or UI value

    Examples:
      | status |
      | 400    |
      | 404    |
      | 500    |
      | 503    |

  @RESOLVER-NON-2XX-FAILED
  Scenario: For generated 4xx and 5xx statuses the lookup fails without evaluating the body
    Given the PBX address book is empty
    Then for generated 4xx and 5xx statuses with a matching body the lookup fails without evaluating it (15 runs)

  @RESOLVER-4XX-HINT
  Scenario Outline: A <status> answer adds a hint to the search log
    Given the customer endpoint answers with status <status> and the default record
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the search log of the resolution has a hint

    Examples:
      | status |
      | 400    |
      | 401    |
      | 403    |
      | 404    |
      | 429    |

  @RESOLVER-CACHE-OFF
  Scenario: With caching off, every resolution of the same number sends a request
    Given the PBX has a provider for the customer endpoint with
      | cache | off |
    When the PBX resolves the caller number "030 1234567"
    And the PBX resolves the caller number "030 1234567" again
    And the PBX resolves the caller number "030 1234567" again
    Then the customer endpoint received 3 requests for the path "/lookup"

  @RESOLVER-CACHE-SUCCESS-ONLY
  Scenario Outline: With caching on, a <outcome> lookup is not cached: the next resolution asks again
    Given the customer endpoint answers with status <status> and the body
      """
      <body>
      """
    And the PBX has a provider for the customer endpoint with
      | cache | on |
    When the PBX resolves the caller number "030 1234567"
    And the PBX resolves the caller number "030 1234567" again
    Then the customer endpoint received 2 requests for the path "/lookup"

    Examples:
      | outcome | status | body                     |
      | failed  | 500    | {"name": "Anna Schmidt"} |
      | failed  | 404    | {"name": "Anna Schmidt"} |
      | empty   | 200    | {"name": ""}             |

  @RESOLVER-SAVE-TO-ADDRESS-BOOK
  Scenario: With saving on, a resolved name is saved to the address book
    Given the PBX address book is empty
    And the PBX has a provider for the customer endpoint with
      | save in address book | on |
    When the PBX resolves the caller number "030 1234567"
    Then the PBX address book has an entry for the number "030 1234567" with the last name "Anna Schmidt"

  @RESOLVER-SAVE-TO-ADDRESS-BOOK
  Scenario: With saving off, nothing is saved to the address book
    Given the PBX address book is empty
    And the PBX has a provider for the customer endpoint with
      | save in address book | off |
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID shows the name "Anna Schmidt"
    And the PBX address book is still empty
