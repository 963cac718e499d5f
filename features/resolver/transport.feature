Feature: Resolver transport: redirects, compression, TLS and the timeout
  web-resolver.md, "Search provider configuration (type HTTP)", "Endpoints / Request by the module",
  "Response expected from the customer endpoint", the states table and "Errors". Left open and not
  asserted: the redirect limit, the method after a redirected POST and whether credentials follow
  (RESOLVER-UNSPEC-REDIRECTS), so only single GET redirects without credentials are followed here;
  the default of the certificate switch (RESOLVER-UNSPEC-VERIFY-DEFAULT), so every HTTPS provider
  sets it; TLS versions other than 1.2 and 1.3, cipher suites and SNI (RESOLVER-UNSPEC-TLS-DETAILS);
  whether a slow connection set-up is aborted and any overall limit (RESOLVER-UNSPEC-CONNECT-TIMEOUT),
  so the slow endpoint delays its answer, not the connection, and a timeout is shown to govern the
  warning by answers well before it (none) and well after it (a warning), with margins of 200 ms and
  more and no other timing asserted; the wording of the timeout warning
  (RESOLVER-UNSPEC-LOG-TEXTS); and what happens to a timeout outside 100 to 1500 ms
  (RESOLVER-UNSPEC-TIMEOUT-CONFIG).

  @RESOLVER-REDIRECTS
  Scenario Outline: A <status> redirect is followed to its new location
    Given a customer endpoint
    And the customer endpoint answers the path "/lookup" with a <status> redirect to "/moved/lookup?v=2"
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint received a request for the path "/lookup" and then one for "/moved/lookup?v=2"
    And the caller ID shows the name "Anna Schmidt"

    Examples:
      | status |
      | 300    |
      | 301    |
      | 302    |
      | 303    |
      | 305    |
      | 307    |
      | 308    |

  @RESOLVER-REDIRECTS
  Scenario: A redirect to another endpoint is followed there
    Given a customer endpoint
    And a customer endpoint "B"
    And the customer endpoint "B" answers with the body
      """
      {"name": "Berta Braun"}
      """
    And the customer endpoint answers the path "/lookup" with a 302 redirect to the path "/elsewhere" of the customer endpoint "B"
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint "B" receives a request for the path "/elsewhere"
    And the caller ID shows the name "Berta Braun"

  @RESOLVER-REDIRECTS
  Scenario: For generated redirect statuses and locations the PBX follows to the new location
    Given a customer endpoint
    Then for generated redirect statuses and locations the PBX's next request goes to the location (15 runs)

  @RESOLVER-RESPONSE-COMPRESSED
  Scenario Outline: An answer compressed with <coding> is decompressed before evaluation
    Given a customer endpoint
    And the customer endpoint compresses its answers with "<coding>"
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint answered with the content coding "<coding>"
    And the caller ID shows the name "Anna Schmidt"

    Examples:
      | coding  |
      | gzip    |
      | deflate |
      | br      |

  @RESOLVER-RESPONSE-COMPRESSED
  Scenario: For generated names and codings the decompressed body is evaluated
    Given a customer endpoint
    Then for generated names compressed with gzip, deflate or br the PBX resolves the name (12 runs)

  @RESOLVER-TLS-VERSIONS
  Scenario Outline: The PBX connects to an endpoint that offers only <version>
    Given a customer endpoint over HTTPS that offers only <version>
    And the PBX has a provider for the customer endpoint with
      | verify certificate | off |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup" over <version>
    And the caller ID shows the name "Anna Schmidt"

    Examples:
      | version |
      | TLS 1.3 |
      | TLS 1.2 |

  @RESOLVER-TLS-CHECK-OFF
  Scenario: With certificate checking off, a self-signed certificate is accepted
    Given a customer endpoint over HTTPS with a self-signed certificate the PBX does not trust
    And the PBX has a provider for the customer endpoint with
      | verify certificate | off |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"
    And the caller ID shows the name "Anna Schmidt"

  @RESOLVER-TLS-TRUST-STORE
  Scenario: With certificate checking on, an untrusted certificate fails the connection before any request
    Given a customer endpoint over HTTPS with a self-signed certificate the PBX does not trust
    And the PBX address book is empty
    And the PBX has a provider for the customer endpoint with
      | verify certificate | on |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint received no request
    And the lookup failed

  @RESOLVER-TLS-TRUST-STORE
  Scenario: With certificate checking on, a certificate from the runtime's trust store is accepted
    Given a customer endpoint over HTTPS whose certificate the PBX's runtime trusts
    And the PBX has a provider for the customer endpoint with
      | verify certificate | on |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"
    And the caller ID shows the name "Anna Schmidt"

  @RESOLVER-TLS-NO-HOSTNAME
  Scenario: A trusted certificate that names another host is accepted
    Given a customer endpoint over HTTPS whose certificate the PBX's runtime trusts but names another host
    And the PBX has a provider for the customer endpoint with
      | verify certificate | on |
    When the PBX resolves the caller number "030 1234567"
    Then the customer endpoint receives a request for the path "/lookup"
    And the caller ID shows the name "Anna Schmidt"

  @RESOLVER-SLOW-NOT-ABORTED @RESOLVER-TIMEOUT-WARNING
  Scenario: An answer slower than the timeout is awaited and evaluated, and the search log warns
    Given a customer endpoint
    And the customer endpoint answers only after 700 ms
    And the PBX has a provider for the customer endpoint with
      | timeout | 150 |
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID shows the name "Anna Schmidt"
    And the search log of the resolution has a timeout warning

  @RESOLVER-TIMEOUT-WARNING
  Scenario: An answer well within the timeout gets no timeout warning
    Given a customer endpoint
    And the PBX has a provider for the customer endpoint with
      | timeout | 1500 |
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID shows the name "Anna Schmidt"
    And the search log of the resolution has no timeout warning

  @RESOLVER-TIMEOUT-DEFAULT
  Scenario: A provider without a configured timeout works with 700 ms
    Given a customer endpoint
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the PBX reports a timeout of 700 ms for the lookup

  @RESOLVER-TIMEOUT-DEFAULT @RESOLVER-TIMEOUT-WARNING
  Scenario Outline: With the default timeout of 700 ms, an answer after <delay> ms gets <warning>
    Given a customer endpoint
    And the customer endpoint answers only after <delay> ms
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID shows the name "Anna Schmidt"
    And the search log of the resolution has <warning>

    Examples:
      | delay | warning            |
      | 500   | no timeout warning |
      | 900   | a timeout warning  |

  @RESOLVER-TIMEOUT-RANGE @RESOLVER-TIMEOUT-WARNING
  Scenario Outline: A timeout of <ms> ms, at the edge of the range, is taken as configured: an answer after <delay> ms gets <warning>
    Given a customer endpoint
    And the customer endpoint answers only after <delay> ms
    And the PBX has a provider for the customer endpoint with
      | timeout | <ms> |
    When the PBX resolves the caller number "030 1234567"
    Then the PBX reports a timeout of <ms> ms for the lookup
    And the caller ID shows the name "Anna Schmidt"
    And the search log of the resolution has <warning>

    Examples:
      | ms   | delay | warning            |
      | 100  | 300   | a timeout warning  |
      | 1500 | 1000  | no timeout warning |

  @RESOLVER-TIMEOUT-RANGE
  Scenario: For generated whole numbers of milliseconds from 100 to 1500 the timeout is taken as configured and governs the timeout warning
    Given a customer endpoint
    Then for generated timeouts from 100 to 1500 ms the PBX works with the configured timeout, warning after it and not well before it (15 runs)
