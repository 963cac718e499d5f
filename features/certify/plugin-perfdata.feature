@certify-plugin
Feature: certify-plugin judges a plug-in's performance data
  plugin-interface.md, "Performance data": `'label'=value[UOM];[warn];[crit];[min];[max]` items
  after the first `|`. Each scenario certifies a small plug-in on `healthy` (in-process, like
  `certify-plugin --scenario healthy`) and reads one PLUGIN clause's verdict and the finding that
  says why; one plug-in keeps the rule, one breaks it. A broken `must` rule fails the
  certification, a broken `should` rule only warns. The locale rule needs a second run under
  `LC_ALL=de_DE.UTF-8`: on a machine without that locale its scenarios are not verifiable.

  @PLUGIN-PERFDATA-GRAMMAR
  Scenario: A label with a space in single quotes keeps the perfdata grammar
    Given the plug-in "check_phones.sh":
      """
      #!/bin/sh
      echo "PBX OK - 139 of 148 phones online | 'phones online'=139;;;0;148 known=148"
      """
    When certify-plugin runs "./check_phones.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-GRAMMAR passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-GRAMMAR
  Scenario: A label with a space left unquoted breaks the perfdata grammar and fails
    Given the plug-in "check_phones.sh":
      """
      #!/bin/sh
      echo "PBX OK - 139 of 148 phones online | phones online=139;;;0;148 known=148"
      """
    When certify-plugin runs "./check_phones.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-GRAMMAR fails on the run "healthy" because "perfdata item phones: no '='"
    And the certification as a whole fails

  @PLUGIN-PERFDATA-NUMBERS
  Scenario: A value with a decimal point keeps the number rule
    Given the plug-in "check_rtp.sh":
      """
      #!/bin/sh
      echo "PBX OK - jitter 3.2 ms | jitter_avg=3.2ms;;;0"
      """
    When certify-plugin runs "./check_rtp.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-NUMBERS passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-NUMBERS
  Scenario: A value with a decimal comma breaks the number rule and fails
    Given the plug-in "check_rtp.sh":
      """
      #!/bin/sh
      echo "PBX OK - jitter 3,2 ms | jitter_avg=3,2ms;;;0"
      """
    When certify-plugin runs "./check_rtp.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-NUMBERS fails on the run "healthy" because "value '3,2ms' is not a number"
    And the certification as a whole fails

  @PLUGIN-PERFDATA-NO-EXPONENT
  Scenario: A size written out in full keeps the no-exponent rule
    Given the plug-in "check_db.sh":
      """
      #!/bin/sh
      echo "PBX OK - database 2 GiB | database_size=2147483648B"
      """
    When certify-plugin runs "./check_db.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-NO-EXPONENT passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-NO-EXPONENT
  Scenario: A size in scientific notation breaks the should-rule: a warning, not a failure
    Given the plug-in "check_db.sh":
      """
      #!/bin/sh
      echo "PBX OK - database 2 GiB | database_size=2.147483648e9B"
      """
    When certify-plugin runs "./check_db.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-NO-EXPONENT warns on the run "healthy" because "value '2.147483648e9B' is in scientific notation"
    And the certification as a whole passes: a broken should-rule only warns

  @PLUGIN-PERFDATA-UOM
  Scenario: An uptime in seconds keeps the unit rule
    Given the plug-in "check_uptime.sh":
      """
      #!/bin/sh
      echo "PBX OK - up 14 days | uptime=1209600s"
      """
    When certify-plugin runs "./check_uptime.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-UOM passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-UOM
  Scenario: An uptime in days breaks the unit rule and fails
    Given the plug-in "check_uptime.sh":
      """
      #!/bin/sh
      echo "PBX OK - up 14 days | uptime=14d"
      """
    When certify-plugin runs "./check_uptime.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-UOM fails on the run "healthy" because "unit 'd' is not one of s ms us % B KB MB GB TB c"
    And the certification as a whole fails

  @PLUGIN-PERFDATA-UOM-BYTES
  Scenario: A heap size in B keeps the bytes rule
    Given the plug-in "check_java.sh":
      """
      #!/bin/sh
      echo "PBX OK - heap 393 MiB of 2 GiB | heap=412090368B;;;0;2147483648"
      """
    When certify-plugin runs "./check_java.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-UOM-BYTES passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-UOM-BYTES
  Scenario: A heap size in MB breaks the should-rule on bytes: a warning, not a failure
    Given the plug-in "check_java.sh":
      """
      #!/bin/sh
      echo "PBX OK - heap 393 MiB of 2 GiB | heap=393MB;;;0;2048"
      """
    When certify-plugin runs "./check_java.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-UOM-BYTES warns on the run "healthy" because "size in MB; the interface prefers B"
    And the certification as a whole passes: a broken should-rule only warns

  @PLUGIN-PERFDATA-RANGES
  Scenario: Thresholds written as ranges keep the range rule
    Given the plug-in "check_calls.sh":
      """
      #!/bin/sh
      echo "PBX OK - 7 calls | calls=7;50;55;0;60 jitter_max=11.5ms;@20:50;~:100"
      """
    When certify-plugin runs "./check_calls.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-RANGES passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-PERFDATA-RANGES
  Scenario: A threshold written as "50-55" breaks the range rule and fails
    Given the plug-in "check_calls.sh":
      """
      #!/bin/sh
      echo "PBX OK - 7 calls | calls=7;50-55;;0;60"
      """
    When certify-plugin runs "./check_calls.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-PERFDATA-RANGES fails on the run "healthy" because "warn '50-55' is not a threshold range"
    And the certification as a whole fails

  @PLUGIN-LOCALE-INDEPENDENT
  Scenario: A plug-in that localises its text but not its numbers prints the same perfdata under de_DE (its own response time aside)
    Given this machine has the locale "de_DE.UTF-8"
    And the plug-in "check_phones.py":
      """
      #!/usr/bin/env python3
      import locale, socket, sys, time
      locale.setlocale(locale.LC_ALL, '')
      if sys.argv[1:2] in (['--help'], ['--version']):
          print('check_phones 1.0 - usage: check_phones.py HOST PORT')
          sys.exit(3)
      start = time.monotonic()
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX PHONES UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      pbx = dict(row.split(' ', 1) for row in text.split('<<<pbx>>>\n', 1)[-1].split('<<<')[0].splitlines() if ' ' in row)
      online, known = int(pbx['online_phones']), int(pbx['known_phones'])
      share = 100.0 * online / known
      took = time.monotonic() - start
      print('PBX PHONES OK - %s %% online | online_share=%.1f%%;;;0;100 time=%.6fs;;;0' % (locale.format_string('%.1f', share), share, took))
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenario "healthy" with the extra runs of PLUGIN-LOCALE-INDEPENDENT
    Then PLUGIN-LOCALE-INDEPENDENT passes, judged on the run "healthy (LC_ALL=de_DE.UTF-8)"
    And the certification as a whole passes

  @PLUGIN-LOCALE-INDEPENDENT
  Scenario: A plug-in that prints its perfdata in the caller's locale breaks the should-rule: a warning
    Given this machine has the locale "de_DE.UTF-8"
    And the plug-in "check_phones.py":
      """
      #!/usr/bin/env python3
      import locale, socket, sys
      locale.setlocale(locale.LC_ALL, '')
      if sys.argv[1:2] in (['--help'], ['--version']):
          print('check_phones 1.0 - usage: check_phones.py HOST PORT')
          sys.exit(3)
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX PHONES UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      pbx = dict(row.split(' ', 1) for row in text.split('<<<pbx>>>\n', 1)[-1].split('<<<')[0].splitlines() if ' ' in row)
      online, known = int(pbx['online_phones']), int(pbx['known_phones'])
      share = locale.format_string('%.1f', 100.0 * online / known)
      print('PBX PHONES OK - %s %% online | online_share=%s%%;;;0;100' % (share, share))
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenario "healthy" with the extra runs of PLUGIN-LOCALE-INDEPENDENT
    Then PLUGIN-LOCALE-INDEPENDENT warns on the run "healthy (LC_ALL=de_DE.UTF-8)" because "under LC_ALL=de_DE.UTF-8: perfdata item online_share=93,9%;;;0;100: value '93,9%' is not a number"
    And the certification as a whole passes: a broken should-rule only warns
