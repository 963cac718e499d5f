Feature: Throttling of attention events per module and system
  maintenance-and-fleet-api.md, "Limits" (forwarding per module and system: 5 at once, then one every
  two minutes) and "Attention item" (`suppressed`). Events are raised on a PBX with a partner
  released; time passes only on the PBX's virtual clock, moved through its control plane. Forwarding
  is observed at the controller. Scenarios stay clear of the exact limiter (EVENT-UNSPEC-THROTTLE-ALGORITHM:
  they hold a module to at most 5 plus one per full two minutes in any stretch of time, whatever
  refills the burst) and of when withheld counts reach the controller (the PBX clock moves on in steps
  of ten minutes, with the messages reported again after each, until the counts have arrived; the
  scenario gives up only after two hours of PBX time, and then the count must be exact). A report is
  withheld when the controller never received it: with a partner released and the link up, what a
  message's reports raised exceed its `occurrences` by.

  Background:
    Given a partner is released on the PBX of the partner's own site

  @EVENT-THROTTLE-BURST
  Scenario: The first 5 events of a module are forwarded at once
    When the module "Überwachung" reports 5 different subjects at the same moment on the partner's own site
    Then all 5 of those subjects are among the partner's open messages

  @EVENT-THROTTLE-RATE @EVENT-THROTTLE-BURST
  Scenario: After the burst, further events of the module are withheld, and at most one passes per two minutes
    When the module "Überwachung" reports 8 different subjects at the same moment on the partner's own site
    Then the first 5 of those subjects are among the partner's open messages and the other 3 are not
    When the PBX clock of the partner's own site moves on by 2 minutes
    And the module "Überwachung" reports 3 more different subjects at the same moment on the partner's own site
    Then at most 1 of those 3 subjects is among the partner's open messages

  @EVENT-THROTTLE-PER-MODULE
  Scenario: A module that used up its limit does not hold back another module's events
    When the module "Überwachung" reports 8 different subjects at the same moment on the partner's own site
    And the module "Datensicherung" reports 5 different subjects at the same moment on the partner's own site
    Then all 5 subjects of "Datensicherung" are among the partner's open messages

  @EVENT-THROTTLE-SUPPRESSED @FLEET-ITEM-SUPPRESSED @FLEET-ITEM-OCCURRENCES
  Scenario: Reports withheld by the limit are counted in the item's suppressed
    When the module "Überwachung" reports "Temperatur zu hoch" with severity "WARNING" on the partner's own site 8 times at the same moment
    Then the message "Temperatur zu hoch" shows 5 occurrences
    When the PBX clock of the partner's own site moves on in steps of ten minutes, with "Temperatur zu hoch" reported again after each, until the withheld count arrives
    Then the message "Temperatur zu hoch" shows in suppressed exactly the reports of each that the controller did not receive

  @EVENT-THROTTLE-SUPPRESSED @FLEET-ITEM-SUPPRESSED
  Scenario: Withheld reports of two subjects of one module are each counted in the item of their own subject
    When the module "Überwachung" reports these subjects at the same moment on the partner's own site:
      | Temperatur zu hoch |
      | Temperatur zu hoch |
      | Temperatur zu hoch |
      | Lüfter zu langsam  |
      | Lüfter zu langsam  |
      | Temperatur zu hoch |
      | Lüfter zu langsam  |
      | Temperatur zu hoch |
      | Lüfter zu langsam  |
      | Lüfter zu langsam  |
    Then the message "Temperatur zu hoch" shows 3 occurrences
    And the message "Lüfter zu langsam" shows 2 occurrences
    When the PBX clock of the partner's own site moves on in steps of ten minutes, with "Temperatur zu hoch" and "Lüfter zu langsam" reported again after each, until the withheld counts arrive
    Then the messages "Temperatur zu hoch" and "Lüfter zu langsam" show in suppressed exactly the reports of each that the controller did not receive

  @EVENT-THROTTLE-BURST @EVENT-THROTTLE-RATE @EVENT-THROTTLE-PER-MODULE @EVENT-THROTTLE-SUPPRESSED @FLEET-ITEM-SUPPRESSED
  Scenario: Over generated event timings and module mixes nothing exceeds the allowance and suppressed counts exactly the withheld reports
    Then over generated event timings and module mixes no module exceeds 5 plus one per two minutes, each fresh module's first 5 pass, and suppressed counts the withheld reports (20 runs)
