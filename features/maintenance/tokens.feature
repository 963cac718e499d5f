Feature: API tokens and Bearer authentication of the maintenance HTTP API
  maintenance-and-fleet-api.md, part A: "Resources and their fields / API token", "States and
  transitions / API token" and "Authentication / Interface A". Tokens are created, listed and
  deleted through the control plane, which stands in for the module UI's security card
  (MAINT-UNSPEC-TOKEN-UI: label length, list order, how the secret is shown are not asserted; the
  last use is only checked after accepted calls). The secret's `=` padding is left open
  (MAINT-UNSPEC-BASE64URL-PADDING), and so are the expiry's granularity and time zone and whether a
  token is still valid during its expiry date (MAINT-UNSPEC-TOKEN-EXPIRY): calls are made at least
  two days before and two days after the expiry instant, which holds for a day-granular date in
  any time zone. Only the `Authorization: Bearer <token>` form with the scheme spelled
  `Bearer` is used for valid calls (MAINT-UNSPEC-BEARER-SYNTAX).

  @MAINT-TOKEN-LABEL-REQUIRED
  Scenario Outline: Creating a token <how> is refused
    When an administrator tries to create an API token <how>
    Then the attempt is refused
    And the token list is as before the attempt

    Examples:
      | how                 |
      | without a label     |
      | with an empty label |

  @MAINT-TOKEN-LABEL-REQUIRED @MAINT-TOKEN-VALID-ON-CREATE
  Scenario: A token created with a label is valid at once
    When an administrator creates an API token labelled "ERP nightly cleanup"
    Then the creation result shows the label "ERP nightly cleanup"
    When the API client requests the command list
    Then the API answers 200 with a list of command names
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-TOKEN-VALID-ON-CREATE
  Scenario: The first call with a new token is a POST, and it is accepted
    When an administrator creates an API token labelled "first call" that expires in 2592000 seconds
    And the API client posts "HangupAllCalls" with an empty body
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-TOKEN-SECRET-FORMAT
  Scenario: A secret uses only the Base64url alphabet and decodes to exactly 32 bytes
    When an administrator creates an API token labelled "format"
    Then the secret is Base64url text that decodes to exactly 32 bytes

  @MAINT-TOKEN-SECRET-FORMAT
  Scenario: Secrets of tokens created with generated labels and expiries are Base64url of 32 bytes, and no two are equal
    Then every token created with a generated label and expiry has a Base64url secret of 32 bytes that no other token has (25 runs)

  @MAINT-TOKEN-SECRET-SHOWN-ONCE
  Scenario: The secret appears in the creation result and in no later view
    When an administrator creates an API token labelled "shown once"
    And the API client requests the command list
    And the API client posts "DeleteTemporaryFiles" with an empty body
    Then the creation result holds the secret in clear
    And the secret appears neither in the token list nor in the module log, the PBX state, the completion events or the API's answers

  @MAINT-TOKEN-HASH-ONLY
  Scenario: Only a SHA-256 hash of the secret is stored
    When an administrator creates an API token labelled "hash only"
    And the API client requests the command list
    Then the stored record of the token holds the SHA-256 hash of the secret and no clear secret

  @MAINT-TOKEN-LIST-FIELDS
  Scenario: The token list shows created time, expiry and last use, and calls update the last use
    When an administrator creates an API token labelled "list fields" that expires in 2592000 seconds
    Then the token list shows the token with its creation time, its expiry and no last use yet
    When 90 seconds pass on the PBX clock
    And the API client requests the command list
    Then the token list shows the time of that call as the token's last use
    When 3600 seconds pass on the PBX clock
    And the API client posts "DeleteTemporaryFiles" with an empty body
    Then the token list shows the time of that call as the token's last use

  @MAINT-TOKEN-ADMIN-RIGHT
  Scenario: A PBX user without the administration right can neither create, list nor delete tokens
    Given an administrator creates an API token labelled "kept"
    When a PBX user without the administration right tries to create an API token labelled "intruder"
    Then the attempt is refused
    When that user tries to list the API tokens
    Then the attempt is refused
    When that user tries to delete the token "kept"
    Then the attempt is refused
    And the token list shows the token "kept" and no token "intruder"
    When the API client requests the command list
    Then the API answers 200 with a list of command names

  @MAINT-TOKEN-NO-SCOPING
  Scenario: Every created token is accepted by the command list and by a POST of every listed command
    Given an administrator creates API tokens labelled "ERP", "RMM" and "deploy"
    Then each of these tokens is accepted by the command list and by a POST of every listed command

  @MAINT-TOKEN-NO-SCOPING
  Scenario: Tokens created with generated labels and expiries authorise the command list and generated listed commands
    Then every token created with a generated label and expiry is accepted by the command list and by a POST of a generated listed command (15 runs)

  @MAINT-TOKEN-NO-EXPIRY
  Scenario: A token created without an expiry is still accepted ten years later
    When an administrator creates an API token labelled "forever" without an expiry
    And 315360000 seconds pass on the PBX clock
    And the API client requests the command list
    Then the API answers 200 with a list of command names

  @MAINT-TOKEN-NO-EXPIRY
  Scenario: A token without expiry stays valid after every generated clock advance
    When an administrator creates an API token labelled "forever" without an expiry
    Then after each generated advance of the PBX clock the token is still accepted (20 runs)

  @MAINT-TOKEN-EXPIRY-BOUNDARY @MAINT-AUTH-401-EXPIRED
  Scenario: A token that expires in 30 days is accepted two days before then and refused with 401 two days after
    When an administrator creates an API token labelled "thirty days" that expires in 2592000 seconds
    And 2419200 seconds pass on the PBX clock
    And the API client requests the command list
    Then the API answers 200 with a list of command names
    When 345600 seconds pass on the PBX clock
    And the API client requests the command list
    Then the API answers 401 with the error message "invalid or missing API token"
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 401 with the error message "invalid or missing API token"

  @MAINT-TOKEN-EXPIRY-BOUNDARY @MAINT-AUTH-401-EXPIRED
  Scenario: For generated expiries and waiting times a token is accepted before its expiry and refused on every call after it
    Then every token created with a generated expiry is accepted before it and refused with 401 on both endpoints after it (15 runs)

  @MAINT-TOKEN-REVOKE-IMMEDIATE @MAINT-AUTH-401-REVOKED
  Scenario: Deleting a valid token revokes it at once
    Given an administrator creates an API token labelled "to revoke"
    And the API client requests the command list
    And the API answers 200 with a list of command names
    When an administrator deletes the token
    And the API client requests the command list
    Then the API answers 401 with the error message "invalid or missing API token"
    When the API client posts "DeleteTemporaryFiles" with an empty body
    Then the API answers 401 with the error message "invalid or missing API token"

  @MAINT-TOKEN-REVOKE-IMMEDIATE @MAINT-AUTH-401-REVOKED
  Scenario: Deleting an expired token revokes it: it leaves the list and calls get 401
    Given an administrator creates an API token labelled "lapsed" that expires in 60 seconds
    When 120 seconds pass on the PBX clock
    And an administrator deletes the token
    Then the token list no longer shows the token
    When the API client requests the command list
    Then the API answers 401 with the error message "invalid or missing API token"

  @MAINT-TOKEN-REVOKE-IMMEDIATE
  Scenario: Deleting one token leaves the other tokens valid
    Given an administrator creates API tokens labelled "stays", "goes" and "also stays"
    When an administrator deletes the token "goes"
    Then the tokens "stays" and "also stays" are accepted and "goes" gets 401

  @MAINT-AUTH-BEARER
  Scenario: A call with Authorization: Bearer and a valid token is authenticated on both endpoints
    Given an administrator creates an API token labelled "bearer"
    When a client requests the command list with the Authorization header "Bearer <token>"
    Then the API answers 200 with a list of command names
    When a client posts "DeleteTemporaryFiles" with the Authorization header "Bearer <token>"
    Then the API answers 200 with the JSON body '{"status":"ok"}'

  @MAINT-AUTH-PBX-LOGIN-NOT-ENOUGH
  Scenario Outline: A PBX user's credentials as <form> without a Bearer token do not authorise a call
    When a client requests the command list with the PBX user's credentials as <form>
    Then the API answers 401 with the error message "invalid or missing API token"
    When a client posts "DeleteTemporaryFiles" with the PBX user's credentials as <form>
    Then the API answers 401 with the error message "invalid or missing API token"

    # A session needs the target file's maintenance.sessionCookie: how the module UI signs a user in
    # is not the maintenance API's spec, and the simulator has no web UI, so there it is not verifiable.
    Examples:
      | form                                         |
      | HTTP Basic authentication                    |
      | a Bearer value of the password               |
      | a Bearer value of login:password             |
      | the XML-RPC credentials parameter of the URL |
      | the cookie of a signed-in web session        |

  @MAINT-AUTH-NO-IP-RESTRICTION
  Scenario: A valid token is accepted from every client address the harness has
    Given the API client holds a valid API token
    Then the token is accepted from the listed and from the unlisted client address

  @MAINT-AUTH-NO-LOCKOUT
  Scenario: After 100 failed token checks from one address a valid token from that address is still accepted
    Given the API client holds a valid API token
    When a client makes 100 calls with tokens that were never issued
    And the API client requests the command list
    Then the API answers 200 with a list of command names

  @MAINT-AUTH-NO-LOCKOUT
  Scenario: After generated series of failed token checks a valid token is still accepted
    Given the API client holds a valid API token
    Then after every generated series of failed token checks the valid token is still accepted (10 runs)

  @MAINT-AUTH-FAILURES-NOT-REPORTED
  Scenario: Failed token checks are not reported to the PBX's security monitoring
    Given the operator notes the PBX's security figures and module UI warnings
    When a client makes 50 calls with tokens that were never issued
    And a client makes 10 calls without a token
    Then the PBX's security figures and module UI warnings are as noted
