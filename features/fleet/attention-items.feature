Feature: Attention items in the site list
  maintenance-and-fleet-api.md, part B: "Site (interface B, entry of the site list)", "Attention item
  (interface B)" and "Limits". Messages are raised on a PBX as a module would (its control plane;
  the controller's control plane where a site has no PBX). Scenarios stay clear of the unit in which
  the 200 and 4000 character limits count and of a marker at the cut (FLEET-UNSPEC-CHARACTER-COUNT:
  subjects and descriptions at the limits are ASCII, and a cut text must keep what was sent up to
  its last 3 characters, which a marker may replace), of
  which time decides "most recent" and of ties (FLEET-UNSPEC-ORDERING: every item is reported once,
  at distinct times), of the fields of the raised event (EVENT-UNSPEC-ATTENTIONEVENT-FIELDS) and of
  what an item shows when repeated reports differ (EVENT-UNSPEC-CHANGED-FIELDS).

  @FLEET-SITE-EVENTS-KEY
  Scenario: "events" is among the attention keys as soon as one module message is open
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    Then the partner's own site shows the finding "events"

  @FLEET-SITE-ATTENTION-EVENTS-OPEN
  Scenario: attentionEvents holds the messages open for the partner's access and not an acknowledged one
    When the module "Telefonie" reports "Leitung 1 gestört" with severity "ERROR" on the partner's own site
    And the module "Telefonie" reports "Leitung 2 gestört" with severity "ERROR" on the partner's own site
    And the module "Telefonie" reports "Leitung 3 gestört" with severity "ERROR" on the partner's own site
    And the partner acknowledges "Leitung 2 gestört"
    Then of the scenario's messages the partner's own site lists exactly "Leitung 1 gestört" and "Leitung 3 gestört" as open

  @FLEET-SITE-ATTENTION-EVENTS-ORDER
  Scenario: Open messages are listed most severe first and, within one severity, most recent first
    When these module messages are reported on the partner's own site, each some minutes after the one before:
      | module    | subject              | severity | minutes |
      | Speicher  | Platte fast voll     | INFO     | 0       |
      | Telefonie | Amt gestört          | CRITICAL | 3       |
      | Lizenzen  | Lizenz läuft ab      | WARNING  | 2       |
      | Sicherung | Sicherung verspätet  | WARNING  | 4       |
      | Netzwerk  | Router nicht erreichbar | CRITICAL | 1    |
      | Kalender  | Feiertage fehlen     | INFO     | 5       |
    Then of the scenario's messages the partner's own site lists "Router nicht erreichbar", "Amt gestört", "Sicherung verspätet", "Lizenz läuft ab", "Feiertage fehlen" and "Platte fast voll" in this order

  @FLEET-SITE-ATTENTION-EVENTS-ORDER
  Scenario: Generated severities and report times are always listed most severe first, then most recent first
    Then for generated severities and report times the open messages are ordered by severity, then recency (15 runs)

  @FLEET-ITEM-SCHEMA @FLEET-ITEM-SEVERITY
  Scenario: Every open message is an attention item as the schema describes it, with one of the four severities
    Given an open module message "Speicherplatz knapp" on the partner's own site
    When the partner requests the site list
    Then every open message in the site list is an attention item as the schema describes it
    And every open message in the site list has the severity "INFO", "WARNING", "ERROR" or "CRITICAL"

  @FLEET-ITEM-SEVERITY
  Scenario Outline: A message reported with severity <severity> is listed with that severity
    When the module "Überwachung" reports "Schwelle erreicht" with severity "<severity>" on the partner's own site
    Then the message "Schwelle erreicht" is listed with the severity "<severity>"

    Examples:
      | severity |
      | INFO     |
      | WARNING  |
      | ERROR    |
      | CRITICAL |

  @FLEET-ITEM-MODULE
  Scenario: module is the display name of the reporting module
    When the module "Zentrale Datensicherung" reports "Band voll" with severity "WARNING" on the partner's own site
    Then the message "Band voll" is listed with the module's display name

  @FLEET-ITEM-MODULEID
  Scenario: moduleId is present and holds the identifier when the module sends one
    When the module "Datensicherung" with the identifier "de.vendor.backup" reports "Ziel nicht erreichbar" with severity "ERROR" on the partner's own site
    Then the message "Ziel nicht erreichbar" is listed with the module's identifier as moduleId

  @FLEET-ITEM-MODULEID
  Scenario: moduleId is absent when the module sends none
    When the module "Datensicherung" reports "Ziel nicht erreichbar" with severity "ERROR" on the partner's own site
    Then the message "Ziel nicht erreichbar" is listed without a moduleId

  @FLEET-ITEM-DESCRIPTION-OPTIONAL
  Scenario: description is present when the module sent one
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" and the description "Das Sicherungsziel ist voll. Alte Sicherungen löschen und erneut starten." on the partner's own site
    Then the message "Sicherung fehlgeschlagen" is listed with the description it was sent with

  @FLEET-ITEM-DESCRIPTION-OPTIONAL
  Scenario: description is absent when the module sent none
    When the module "Datensicherung" reports "Sicherung fehlgeschlagen" with severity "ERROR" on the partner's own site
    Then the message "Sicherung fehlgeschlagen" is listed without a description

  @FLEET-ITEM-SUBJECT-LIMIT
  Scenario Outline: An ASCII subject of <length> characters is <fate>
    When a module reports a subject of <length> ASCII characters on the partner's own site
    Then the listed subject is <fate>

    Examples:
      | length | fate                        |
      | 1      | kept unchanged              |
      | 199    | kept unchanged              |
      | 200    | kept unchanged              |
      | 201    | cut to 200 characters       |
      | 250    | cut to 200 characters       |
      | 4096   | cut to 200 characters       |

  @FLEET-ITEM-SUBJECT-LIMIT
  Scenario: Generated ASCII subjects around the limit are kept up to 200 characters and cut to 200 beyond
    Then generated ASCII subjects of up to 600 characters are kept up to 200 characters and cut to 200 beyond (20 runs)

  @FLEET-ITEM-DESCRIPTION-LIMIT
  Scenario Outline: An ASCII description of <length> characters is <fate>
    When a module reports a description of <length> ASCII characters on the partner's own site
    Then the listed description is <fate>

    Examples:
      | length | fate                         |
      | 1      | kept unchanged               |
      | 3999   | kept unchanged               |
      | 4000   | kept unchanged               |
      | 4001   | cut to 4000 characters       |
      | 12000  | cut to 4000 characters       |

  @FLEET-ITEM-DESCRIPTION-LIMIT
  Scenario: Generated ASCII descriptions around the limit are kept up to 4000 characters and cut to 4000 beyond
    Then generated ASCII descriptions of up to 8000 characters are kept up to 4000 characters and cut to 4000 beyond (10 runs)

  @FLEET-ITEM-FIRSTAT
  Scenario: firstAt is the time of the first report by the PBX's clock, not the controller's
    Given the PBX clock of the partner's own site moves on by 4331 minutes
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    And the PBX clock of the partner's own site moves on by 7 minutes
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then the message "Amt gestört" has firstAt equal to the PBX clock at its first report
    And the PBX clock of the partner's own site is more than a minute away from the controller's clock

  @FLEET-ITEM-LASTAT
  Scenario: lastAt is the time of the last report by the PBX's clock and follows every merged report
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    And the PBX clock of the partner's own site moves on by 11 minutes
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then the message "Amt gestört" has lastAt equal to the PBX clock at its latest report
    When the PBX clock of the partner's own site moves on by 3 minutes
    And the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site
    Then the message "Amt gestört" has lastAt equal to the PBX clock at its latest report

  @FLEET-ITEM-LASTAT @FLEET-ITEM-FIRSTAT
  Scenario: For generated report times firstAt and lastAt are the PBX times of the first and the last report
    Then for generated gaps between reports of one message firstAt and lastAt are the PBX times of its first and last report (15 runs)

  @FLEET-ITEM-OCCURRENCES
  Scenario: occurrences counts the reports received for the message
    When the module "Telefonie" reports "Amt gestört" with severity "CRITICAL" on the partner's own site 3 times
    Then the message "Amt gestört" shows 3 occurrences

  @FLEET-ITEM-OCCURRENCES
  Scenario: For a generated number of reports occurrences equals that number
    Then for a generated number of reports of one message its occurrences equal that number (12 runs)

  @FLEET-TIMES-MS-UTC
  Scenario: Every time in the site list, the acknowledge result and the history is integer milliseconds since 1970 UTC
    Given an open module message "Lüfter ausgefallen" on the partner's own site
    When the partner requests the site list
    Then every time in the controller's answer is an integer count of milliseconds since 1970
    When the partner acknowledges "Lüfter ausgefallen" with the comment "erledigt"
    Then every time in the controller's answer is an integer count of milliseconds since 1970
    When the partner requests the history of the partner's own site
    Then every time in the controller's answer is an integer count of milliseconds since 1970

  @FLEET-TIMES-MS-UTC
  Scenario: For generated PBX clock times the item times are those instants in milliseconds since 1970 UTC
    Then for generated PBX clock times the item times are those instants in milliseconds since 1970 (12 runs)
