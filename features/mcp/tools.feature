Feature: MCP tools fleet_attention and fleet_attention_acknowledge
  maintenance-and-fleet-api.md, part B: "What the service does / B" and "Endpoints / MCP tools
  (interface B)". The scenarios use the official MCP SDK client over Streamable HTTP with a Bearer
  access token (MCP-UNSPEC-TRANSPORT: endpoint, transport and token handling are the target's). They
  stay clear of the shape of a failed tool result (MCP-UNSPEC-FAILED-RESULT: a tool result with
  `isError`, a JSON-RPC error and an HTTP error status all count as a failed call; where a level
  refuses a call, the same token must first have read through fleet_attention, and the refusal must
  come on the call itself, as a tool result with `isError`, a JSON-RPC error or an HTTP 403, never as
  a 401 or a failure to open the session), of the per-site
  fields besides `events` and of `description` for an item without one (MCP-UNSPEC-SITE-FIELDS: a
  site is matched by any member that holds its id), and of what a Viewer may do
  (MCP-UNSPEC-VIEWER). The instruction to acknowledge only on explicit request (MCP-ACK-EXPLICIT-ONLY)
  is not testable.

  @MCP-ATTENTION-SITES @MCP-ATTENTION-EVENTS
  Scenario: fleet_attention returns the partner's sites with findings and their open messages under events
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant calls "fleet_attention" with a read-and-write token
    Then the tool call succeeds
    And the tool result lists exactly the partner's sites that have findings
    And every open message in the tool result has attentionId, module, subject, description, severity, firstAt, lastAt and occurrences

  @MCP-ATTENTION-SITES
  Scenario: fleet_attention also lists a site whose only finding is not a module message
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    And the partner's second site shows no finding "trunks"
    And the PBX of the partner's second site gets an unregistered SIP trunk
    And the partner's second site shows the finding "trunks"
    When the partner's assistant calls "fleet_attention" with a read-and-write token
    Then the tool call succeeds
    And the tool result lists exactly the partner's sites that have findings
    And every open message in the tool result has attentionId, module, subject, description, severity, firstAt, lastAt and occurrences

  @MCP-ATTENTION-EVENTS
  Scenario: An open message with a description shows it under events
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" and the description "Das Sicherungsziel ist voll." on the partner's own site
    And the partner's assistant calls "fleet_attention" with a read-and-write token
    Then the tool call succeeds
    And the tool result lists "Sicherung fehlgeschlagen" among the open messages
    And the tool result shows "Sicherung fehlgeschlagen" with the description it was sent with

  @MCP-SAME-DATA-AS-REST
  Scenario: fleet_attention shows the same sites with findings and open messages as the REST site list
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    And an open module message "USV meldet Batteriefehler" on the shared site
    When the partner's assistant calls "fleet_attention" with a read-and-write token
    Then the tool result has the same sites with findings and the same open messages as the partner's REST site list

  @MCP-ATTENTION-READ-LEVEL
  Scenario: A caller with the read level may call fleet_attention
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant calls "fleet_attention" with a read-only token
    Then the tool call succeeds
    And the tool result lists "Lüfter ausgefallen" among the open messages

  @MCP-ACK-RESULT @MCP-ACK-HISTORY
  Scenario: fleet_attention_acknowledge acknowledges for the partner's access, returns outcome ok and writes history with channel mcp
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token
    Then the tool call succeeds
    And the tool result has outcome "ok", the attentionId and siteId of "Lüfter ausgefallen", alreadyAcknowledged false and an acknowledgedAt
    And "Lüfter ausgefallen" is not among the partner's open messages
    And the history entry of "Lüfter ausgefallen" has the channel "mcp" and the partner's account name as actor

  @MCP-ACK-REPEAT
  Scenario: A repeated fleet_attention_acknowledge returns outcome ok with alreadyAcknowledged true
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token
    And the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token
    Then the tool call succeeds
    And the tool result has outcome "ok" and alreadyAcknowledged true

  @MCP-ACK-SAME-AS-REST
  Scenario: An acknowledgement through MCP is the one REST sees
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token
    And the partner acknowledges "Lüfter ausgefallen"
    Then the acknowledge result says alreadyAcknowledged true

  @MCP-ACK-SAME-AS-REST
  Scenario: An acknowledgement through REST is the one MCP sees
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner acknowledges "Lüfter ausgefallen"
    And the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token
    Then the tool call succeeds
    And the tool result has outcome "ok" and alreadyAcknowledged true

  @MCP-ACK-ATTENTIONID-REQUIRED
  Scenario: fleet_attention_acknowledge without attentionId fails and acknowledges nothing
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant calls "fleet_attention_acknowledge" without an attentionId with a read-and-write token
    Then the tool call fails
    And "Lüfter ausgefallen" is among the partner's open messages
    And the history of the partner's own site holds exactly 0 entries for "Lüfter ausgefallen"

  @MCP-ACK-COMMENT-MAX
  Scenario: A comment of exactly 1000 characters is accepted through MCP
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a comment of 1000 ASCII characters
    Then the tool call succeeds
    And the tool result has outcome "ok" and alreadyAcknowledged false

  @MCP-ACK-COMMENT-MAX
  Scenario Outline: A comment of <length> characters through MCP fails and acknowledges nothing
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a comment of <length> ASCII characters
    Then the tool call fails
    And "Lüfter ausgefallen" is among the partner's open messages

    Examples:
      | length |
      | 1001   |
      | 4000   |

  @MCP-ACK-COMMENT-MAX
  Scenario: Generated comments through MCP are accepted up to 1000 characters and fail beyond, acknowledging nothing
    Then generated comments through MCP are accepted up to 1000 characters and fail beyond without acknowledging (12 runs)

  @MCP-ACK-TOKEN-LEVEL
  Scenario: fleet_attention_acknowledge with a read-only token of a read-and-write account is refused and acknowledges nothing
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant calls "fleet_attention" with a read-only token
    Then the tool call succeeds
    And the tool result lists "Lüfter ausgefallen" among the open messages
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-only token
    Then the tool call is refused as a call, not turned away for its token
    And "Lüfter ausgefallen" is among the partner's open messages
    And the history of the partner's own site holds exactly 0 entries for "Lüfter ausgefallen"

  @MCP-ACK-ACCOUNT-LEVEL
  Scenario: fleet_attention_acknowledge by a read-only account is refused even with a read-and-write token, and acknowledges nothing
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner's assistant calls "fleet_attention" with a read-and-write token of a read-only account
    Then the tool call succeeds
    And the tool result lists "Lüfter ausgefallen" among the open messages
    When the partner's assistant acknowledges "Lüfter ausgefallen" through MCP with a read-and-write token of a read-only account
    Then the tool call is refused as a call, not turned away for its token
    And "Lüfter ausgefallen" is among the partner's open messages
    And the history of the partner's own site holds exactly 0 entries for "Lüfter ausgefallen"
