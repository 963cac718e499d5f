Feature: Throttling of attention events per module and system
  maintenance-and-fleet-api.md, "Limits" (forwarding per module and system: 5 at once, then one every
  two minutes) and "Attention item" (`suppressed`). Events are raised on a PBX with a partner
  released; time passes only on the PBX's virtual clock, moved through its control plane. Forwarding
  is observed at the controller. Scenarios stay clear of the exact limiter (EVENT-UNSPEC-THROTTLE-ALGORITHM:
  they hold a module to at most 5 plus one per full two minutes in any stretch of time, whatever
  refills the burst) and of when withheld counts reach the controller (they are checked once the
  module's next report after a pause of ten minutes has arrived).

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
    When the PBX clock of the partner's own site moves on by 10 minutes
    And the module "Überwachung" reports "Temperatur zu hoch" with severity "WARNING" on the partner's own site
    Then the message "Temperatur zu hoch" shows 6 occurrences
    And the message "Temperatur zu hoch" shows 3 suppressed

  @EVENT-THROTTLE-BURST @EVENT-THROTTLE-RATE @EVENT-THROTTLE-PER-MODULE @EVENT-THROTTLE-SUPPRESSED @FLEET-ITEM-SUPPRESSED
  Scenario: Over generated event timings and module mixes nothing exceeds the allowance and suppressed counts exactly the withheld reports
    Then over generated event timings and module mixes no module exceeds 5 plus one per two minutes, each fresh module's first 5 pass, and suppressed counts the withheld reports (20 runs)
