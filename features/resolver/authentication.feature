Feature: Resolver authentication: None, Basic, Digest and Bearer
  web-resolver.md, "Authentication". The reference endpoint demands the scheme and checks the
  credentials itself (its digest verifier is written apart from the simulator's client, so the two
  check each other); the scenarios check what it recorded and that the PBX got the name. Left open:
  the digest algorithms and qop values supported (RESOLVER-UNSPEC-DIGEST), so the endpoint offers
  SHA-256 and MD5 challenges with qop=auth together and accepts an answer to either; the encoding
  of non-ASCII Basic credentials (RESOLVER-UNSPEC-BASIC-CHARSET), so credentials are ASCII; and
  whether credentials follow a redirect (RESOLVER-UNSPEC-REDIRECTS), which no scenario does.

  Background:
    Given a customer endpoint

  @RESOLVER-AUTH-NONE
  Scenario: With authentication None the request carries no credentials
    Given the PBX has a provider for the customer endpoint with
      | authentication | None |
    When the PBX resolves the caller number "030 1234567"
    Then the requests the customer endpoint received carry no credentials
    And the caller ID shows the name "Anna Schmidt"

  @RESOLVER-AUTH-BASIC @RESOLVER-AUTH-BASIC-PREEMPTIVE
  Scenario: Basic credentials go with the first request, before any challenge
    Given the customer endpoint requires Basic authentication as "anna" with the password "Geheim-2024:x"
    And the PBX has a provider for the customer endpoint with
      | authentication | Basic         |
      | user name      | anna          |
      | password       | Geheim-2024:x |
    When the PBX resolves the caller number "030 1234567"
    Then the first request the customer endpoint received carries Basic credentials for "anna" with the password "Geheim-2024:x"
    And the customer endpoint accepted the first request's credentials
    And the caller ID shows the name "Anna Schmidt"

  @RESOLVER-AUTH-BASIC @RESOLVER-AUTH-BASIC-PREEMPTIVE
  Scenario: For generated user names and passwords the first request carries the matching Basic credentials
    Then for generated ASCII user names and passwords the first request carries Basic credentials the endpoint accepts (15 runs)

  @RESOLVER-AUTH-DIGEST @RESOLVER-AUTH-DIGEST-VALID
  Scenario Outline: Digest: the PBX answers the 401 challenge by repeating the request with an authorisation the endpoint verifies (challenges <algorithms>)
    Given the customer endpoint requires Digest authentication with the challenges <algorithms> as "anna" with the password "Geheim-2024"
    And the PBX has a provider for the customer endpoint with
      | authentication | Digest      |
      | user name      | anna        |
      | password       | Geheim-2024 |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint answered a request with 401 and a Digest challenge
    And the PBX repeated that request with Digest authorisation
    And the customer endpoint accepted the Digest authorisation
    And the caller ID shows the name "Anna Schmidt"

    Examples:
      | algorithms           |
      | "SHA-256" and "MD5"  |
      | "MD5" and "SHA-256"  |

  @RESOLVER-AUTH-DIGEST @RESOLVER-AUTH-DIGEST-VALID
  Scenario: Digest with a POST provider repeats the same POST with authorisation
    Given the customer endpoint requires Digest authentication with the challenges "SHA-256" and "MD5" as "anna" with the password "Geheim-2024"
    And the PBX has a provider for the customer endpoint with
      | method         | POST        |
      | authentication | Digest      |
      | user name      | anna        |
      | password       | Geheim-2024 |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint answered a request with 401 and a Digest challenge
    And the PBX repeated that request with Digest authorisation
    And the customer endpoint accepted the Digest authorisation

  @RESOLVER-AUTH-DIGEST-VALID
  Scenario: For generated user names and passwords the digest authorisation verifies
    Then for generated user names and passwords the endpoint verifies the PBX's digest authorisation (10 runs)

  @RESOLVER-AUTH-BEARER
  Scenario: Bearer sends the security token in the authorization header
    Given the customer endpoint requires the Bearer token "tok-123.abc_XYZ~"
    And the PBX has a provider for the customer endpoint with
      | authentication | Bearer           |
      | security token | tok-123.abc_XYZ~ |
    When the PBX resolves the caller number "030 1234567"
    Then the first request the customer endpoint received carries the header "authorization" with the value "Bearer tok-123.abc_XYZ~"
    And the caller ID shows the name "Anna Schmidt"
