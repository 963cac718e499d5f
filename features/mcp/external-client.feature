@external-mcp-client
Feature: The MCP tools through an MCP client the project did not write
  maintenance-and-fleet-api.md, part B, "Endpoints / MCP tools (interface B)", exercised with the
  MCP Inspector's command-line client (`npx @modelcontextprotocol/inspector@0.15.0 --cli`, Streamable
  HTTP). Optional: it downloads the client, so it runs only with PBX_CONFORMANCE_EXTERNAL_MCP=1 and is
  otherwise reported not verifiable. That client version sends no custom headers, so the harness
  puts a loopback relay in front of the MCP endpoint that only adds `Authorization: Bearer <token>`;
  every MCP message is the external client's. Same UNSPEC boundaries as tools.feature.

  @MCP-ATTENTION-SITES @MCP-ATTENTION-EVENTS @MCP-SAME-DATA-AS-REST
  Scenario: The external client lists both tools and reads the same sites and open messages as REST
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the external MCP client lists the tools with a read-and-write token
    Then the external client's tool list names "fleet_attention" and "fleet_attention_acknowledge"
    When the external MCP client calls "fleet_attention" with a read-and-write token
    Then the tool call succeeds
    And the tool result lists "Lüfter ausgefallen" among the open messages
    And the tool result has the same sites with findings and the same open messages as the partner's REST site list

  @MCP-ACK-RESULT @MCP-ACK-HISTORY @MCP-ACK-REPEAT
  Scenario: The external client acknowledges a message, and repeating it answers alreadyAcknowledged true
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the external MCP client acknowledges "Lüfter ausgefallen" with a read-and-write token
    Then the tool call succeeds
    And the tool result has outcome "ok", the attentionId and siteId of "Lüfter ausgefallen", alreadyAcknowledged false and an acknowledgedAt
    And the history entry of "Lüfter ausgefallen" has the channel "mcp" and the partner's account name as actor
    When the external MCP client acknowledges "Lüfter ausgefallen" with a read-and-write token
    Then the tool call succeeds
    And the tool result has outcome "ok" and alreadyAcknowledged true

  @MCP-ACK-TOKEN-LEVEL
  Scenario: The external client's acknowledge with a read-only token fails and acknowledges nothing
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the external MCP client acknowledges "Lüfter ausgefallen" with a read-only token
    Then the tool call fails
    And "Lüfter ausgefallen" is among the partner's open messages
