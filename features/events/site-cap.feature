Feature: At most 200 distinct messages per site
  maintenance-and-fleet-api.md, "Limits": a site holds at most 200 distinct messages; beyond that only
  existing ones are updated. Scenarios stay clear of whether acknowledged items count towards the 200
  and whether items expire (EVENT-UNSPEC-CAP-DETAIL: every message stays open, and every scenario
  fills a site it added through the controller's control plane, which holds no earlier item).

  @EVENT-SITE-CAP @EVENT-SITE-CAP-UPDATES
  Scenario: The 201st distinct message creates no item, while an existing one is still updated
    Given a fresh site of the partner, added through the controller's control plane
    When 200 distinct messages are reported on the partner's fresh site
    Then the partner's fresh site lists those 200 messages as open
    When one more distinct message "Nummer 201" is reported on the partner's fresh site
    Then "Nummer 201" is not among the partner's open messages
    And the partner's fresh site lists 200 of the scenario's messages as open
    When the first of the 200 messages is reported again on the partner's fresh site, 5 minutes later
    Then that message shows 2 occurrences and lastAt equal to the PBX clock at its latest report

  @EVENT-SITE-CAP @EVENT-SITE-CAP-UPDATES
  Scenario: For generated numbers of distinct messages around 200 a fresh site holds no more than 200, and repeats still update
    Then for generated numbers of distinct messages around 200 a fresh site holds the smaller of that number and 200, and a repeat still updates an item (8 runs)
