Feature: Creating and merging attention items on the controller
  maintenance-and-fleet-api.md, "States and transitions / Attention entries" and "Attention item":
  the controller merges messages with the same site, module and subject into one item, keeps its id
  and counts repetitions. Repeated reports of one module leave two PBX minutes between them once the
  module's burst is used, so no report is withheld. Scenarios stay clear of what an item shows when
  repeated reports differ in severity, description or moduleId (EVENT-UNSPEC-CHANGED-FIELDS).

  @EVENT-FIRST-REPORT-OPENS
  Scenario: A first report creates an open item with occurrences 1
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    Then "Sicherung fehlgeschlagen" is among the partner's open messages
    And the message "Sicherung fehlgeschlagen" shows 1 occurrence

  @EVENT-REPEAT-MERGED
  Scenario: Further reports of the same site, module and subject merge into the one open item
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    And the partner notes the id of "Sicherung fehlgeschlagen"
    And the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site 2 times
    Then the partner's own site lists "Sicherung fehlgeschlagen" once, under the noted id
    And the message "Sicherung fehlgeschlagen" shows 3 occurrences

  @EVENT-REPEAT-MERGED @FLEET-ITEM-ID-STABLE
  Scenario: Generated repetitions of one message always merge into one item with a stable id
    Then generated repetitions of one message merge into one item whose id stays and whose occurrences grow (12 runs)

  @EVENT-KEY-SITE-MODULE-SUBJECT
  Scenario: Reports that differ in module or subject are separate items
    When the module "Datensicherung" reports "Ziel voll" with severity "ERROR" on the partner's own site
    And the module "Datensicherung" reports "Ziel nicht erreichbar" with severity "ERROR" on the partner's own site
    And the module "Archivierung" reports "Ziel voll" with severity "ERROR" on the partner's own site as "Ziel voll (Archivierung)"
    Then the partner's own site lists "Ziel voll", "Ziel nicht erreichbar" and "Ziel voll (Archivierung)" as 3 separate items

  @EVENT-KEY-SITE-MODULE-SUBJECT
  Scenario: The same module and subject on two sites are separate items
    When the module "Datensicherung" reports "Ziel voll" with severity "ERROR" on the partner's own site
    And the module "Datensicherung" reports "Ziel voll" with severity "ERROR" on the partner's second site as "Ziel voll (zweiter Standort)"
    Then "Ziel voll" and "Ziel voll (zweiter Standort)" are listed once each, as separate items
    When the partner acknowledges "Ziel voll"
    Then "Ziel voll (zweiter Standort)" is among the partner's open messages

  @EVENT-KEY-SITE-MODULE-SUBJECT
  Scenario: Generated mixes of modules and subjects give one item per distinct module and subject
    Then generated mixes of modules and subjects give exactly one item per distinct pair (12 runs)

  @FLEET-ITEM-ID-STABLE
  Scenario: An item keeps its id across repetitions, an acknowledgement and a reopening
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    And the partner notes the id of "Amt gestört"
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site 2 times
    And the partner acknowledges "Amt gestört"
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then the partner's own site lists "Amt gestört" once, under the noted id

  @FLEET-ITEM-ID-STABLE
  Scenario: Over generated reports, acknowledgements and reopenings each message keeps its id
    Then over generated reports, acknowledgements and reopenings every message keeps the id it got first (12 runs)
