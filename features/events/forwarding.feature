Feature: Forwarding attention events from the PBX to the controller
  maintenance-and-fleet-api.md, "Events": a module on the PBX sends an AttentionEvent; the
  management module turns it into a system report and forwards it only when a partner is released
  on that system. The PBX is driven through its control plane (raise an event, release or withdraw
  the partner); forwarding is observed where it arrives, at the controller. Scenarios stay clear of
  how a partner is released and of the form of the system report (EVENT-UNSPEC-PARTNER-RELEASE: a
  report counts when the PBX's module log gains an entry naming the subject), and of the transport
  (EVENT-UNSPEC-TRANSPORT).

  @EVENT-FORWARD-WITH-PARTNER
  Scenario: With a partner released, a module's attention event reaches the controller
    Given a partner is released on the PBX of the partner's own site
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    Then "Sicherung fehlgeschlagen" is among the partner's open messages

  @EVENT-NO-FORWARD-WITHOUT-PARTNER
  Scenario: Without a released partner, attention events are not forwarded
    Given no partner is released on the PBX of the partner's own site
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    And a partner is released on the PBX of the partner's own site
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then "Amt gestört" is among the partner's open messages
    And "Sicherung fehlgeschlagen" is not among the partner's open messages

  @EVENT-SYSTEM-REPORT
  Scenario Outline: Every attention event becomes a system report on the PBX, <release>
    Given <release> on the PBX of the partner's own site
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen am Ziel NAS-02" with severity "ERROR" on the partner's own site
    Then the PBX of the partner's own site has a new system report naming "Sicherung fehlgeschlagen am Ziel NAS-02"

    Examples:
      | release                         |
      | a partner is released           |
      | no partner is released          |
