@certify-plugin
Feature: certify-plugin judges how a plug-in run ends
  plugin-interface.md, "A run". Each scenario writes a small check plug-in (the doc string), runs
  `certify-plugin` on it in-process with the catalog scenarios it names, and reads the verdict of
  one PLUGIN clause over every run and the finding that says why. For each clause one plug-in keeps
  the rule and one breaks it: a broken `must` rule fails the certification, a broken `should` rule
  is a warning that never fails it. These scenarios prove certify-plugin itself; against a
  `verify --target` they are not verifiable and touch nothing.

  @PLUGIN-EXIT-CODE
  Scenario: A plug-in that ends with 0 to 3 keeps the exit-code rule
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      echo "PBX OK - the plug-in ran against $1:$2"
      exit 0
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-EXIT-CODE passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-EXIT-CODE
  Scenario: A plug-in that ends with exit -1 (255) breaks the exit-code rule and fails
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      echo "PBX OK - the plug-in ran against $1:$2"
      exit 255
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-EXIT-CODE fails on the run "healthy" because "exit code 255 is not 0-3"
    And the certification as a whole fails

  @PLUGIN-NO-CRASH
  Scenario: A plug-in that catches a refused connection and ends UNKNOWN keeps the no-crash rule
    Given the plug-in "check_agent.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX UNKNOWN - cannot read %s:%s: %s' % (sys.argv[1], sys.argv[2], error))
          sys.exit(3)
      print('PBX OK - %d lines of agent text' % len(text.splitlines()))
      """
    When certify-plugin runs "./check_agent.py {host} {port}" on the scenarios "healthy" and "endpoint-down"
    Then PLUGIN-NO-CRASH passes, judged on the runs "healthy" and "endpoint-down"
    And the certification as a whole passes

  @PLUGIN-NO-CRASH
  Scenario: A plug-in that lets a refused connection end in a traceback breaks the no-crash rule, whatever its exit code
    Given the plug-in "check_agent.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      print('PBX OK - %d lines of agent text' % len(text.splitlines()))
      """
    When certify-plugin runs "./check_agent.py {host} {port}" on the scenarios "healthy" and "endpoint-down"
    Then PLUGIN-NO-CRASH fails on the run "endpoint-down" because "a Python traceback in its output"
    And PLUGIN-EXIT-CODE passes, judged on the run "endpoint-down"
    And the certification as a whole fails

  @PLUGIN-NO-CRASH
  Scenario: A plug-in that lets its own timeout end in a traceback crashes on the held-back answer and fails
    Given the plug-in "check_agent.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      if sys.argv[1:2] in (['--help'], ['--version']):
          print('check_agent 1.0 - usage: check_agent.py HOST PORT TIMEOUT')
          sys.exit(3)
      host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
      with socket.create_connection((host, port), timeout=timeout) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      print('PBX OK - %d lines of agent text' % len(text.splitlines()))
      """
    When certify-plugin runs "./check_agent.py {host} {port} {timeout}" on the scenario "healthy" with the extra runs of PLUGIN-OWN-TIMEOUT
    Then PLUGIN-NO-CRASH fails on the run "held-back answer" because "a Python traceback in its output"
    And PLUGIN-NO-CRASH passes on the run "healthy"
    And the certification as a whole fails

  @PLUGIN-FIRST-LINE
  Scenario: A plug-in whose first line is a status text keeps the first-line rule
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      echo "PBX OK - 139 of 148 phones online | online=139;;;0;148"
      exit 0
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-FIRST-LINE passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-FIRST-LINE
  Scenario: A plug-in that prints only performance data breaks the first-line rule and fails
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      echo "| online=139;;;0;148"
      exit 0
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy"
    Then PLUGIN-FIRST-LINE fails on the run "healthy" because "the first line has no text before its perfdata"
    And the certification as a whole fails

  @PLUGIN-KNOWN-WHEN-SERVED
  Scenario: A channels plug-in reading the maximum as the field does knows its state on healthy
    Given the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX CHANNELS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      lines, inside = [], False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx_channels>>>'
          elif inside and row.strip():
              lines.append(row.strip())
      maxima = [int(row.split()[0]) for row in lines if row.endswith('max calls')]
      channels = [row for row in lines if not row.endswith('max calls')]
      if not maxima:
          print('PBX CHANNELS UNKNOWN - no "<N> max calls" line')
          sys.exit(3)
      print('PBX CHANNELS OK - %d of %d channels in use | channels=%d;;;0;%d' % (len(channels), maxima[0], len(channels), maxima[0]))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenario "healthy"
    Then PLUGIN-KNOWN-WHEN-SERVED passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-KNOWN-WHEN-SERVED
  Scenario: A channels plug-in written against the old channels line ends UNKNOWN on healthy and fails
    Given the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import re, socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX CHANNELS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      found = re.search(r'^(\d+) max calls (\d+) last_5min_calls$', text, re.M)
      if not found:
          print('PBX CHANNELS UNKNOWN - no "<N> max calls <M> last_5min_calls" line')
          sys.exit(3)
      print('PBX CHANNELS OK - %s calls in 5 minutes | calls=%s' % (found.group(2), found.group(2)))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenario "healthy"
    Then PLUGIN-KNOWN-WHEN-SERVED fails on the run "healthy" because "state UNKNOWN against a PBX that serves every section with known values"
    And the certification as a whole fails

  @PLUGIN-OUTPUT-SIZE
  Scenario: A plug-in with 400 KiB of long text stays within 512 KiB
    Given the plug-in "check_verbose.py":
      """
      #!/usr/bin/env python3
      import sys
      print('PBX OK - every peer listed below')
      sys.stdout.write(('peer 201 OK (12 ms)' + ' ' * 45 + '\n') * 6400)
      """
    When certify-plugin runs "./check_verbose.py {host} {port}" on the scenario "healthy"
    Then PLUGIN-OUTPUT-SIZE passes, judged on the run "healthy"
    And the certification as a whole passes

  @PLUGIN-OUTPUT-SIZE
  Scenario: A plug-in with 600 KiB of output breaks the should-rule on size: a warning, not a failure
    Given the plug-in "check_verbose.py":
      """
      #!/usr/bin/env python3
      import sys
      print('PBX OK - every peer listed below')
      sys.stdout.write(('peer 201 OK (12 ms)' + ' ' * 45 + '\n') * 9600)
      """
    When certify-plugin runs "./check_verbose.py {host} {port}" on the scenario "healthy"
    Then PLUGIN-OUTPUT-SIZE warns on the run "healthy" because "bytes of output, more than 512 KiB"
    And the certification as a whole passes: a broken should-rule only warns

  @PLUGIN-HELP-VERSION
  Scenario: A plug-in that answers --help and --version with text and exit 3 keeps the rule
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      case "$1" in
        -h|--help) echo "check_up - says whether the PBX answers. Usage: check_up.sh HOST PORT"; exit 3 ;;
        -V|--version) echo "check_up 1.0.0"; exit 3 ;;
      esac
      echo "PBX OK - the plug-in ran against $1:$2"
      exit 0
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy" with the extra runs of PLUGIN-HELP-VERSION
    Then PLUGIN-HELP-VERSION passes, judged on the runs "--help" and "--version"
    And the certification as a whole passes

  @PLUGIN-HELP-VERSION
  Scenario: A plug-in that takes --help for a host name and exits 0 breaks the should-rule: a warning
    Given the plug-in "check_up.sh":
      """
      #!/bin/sh
      echo "PBX OK - the plug-in ran against $1:$2"
      exit 0
      """
    When certify-plugin runs "./check_up.sh {host} {port}" on the scenario "healthy" with the extra runs of PLUGIN-HELP-VERSION
    Then PLUGIN-HELP-VERSION warns on the run "--help" because "exit code 0, not 3"
    And PLUGIN-HELP-VERSION warns on the run "--version" because "exit code 0, not 3"
    And the certification as a whole passes: a broken should-rule only warns

  @PLUGIN-OWN-TIMEOUT
  Scenario: A plug-in that waits {timeout} seconds and then ends UNKNOWN keeps its own timeout
    Given the plug-in "check_agent.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      if sys.argv[1:2] in (['--help'], ['--version']):
          print('check_agent 1.0 - usage: check_agent.py HOST PORT TIMEOUT')
          sys.exit(3)
      host, port, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
      try:
          with socket.create_connection((host, port), timeout=timeout) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except socket.timeout:
          print('PBX UNKNOWN - no answer from %s:%d within %g s' % (host, port, timeout))
          sys.exit(3)
      except OSError as error:
          print('PBX UNKNOWN - cannot read %s:%d: %s' % (host, port, error))
          sys.exit(3)
      print('PBX OK - %d lines of agent text' % len(text.splitlines()))
      """
    When certify-plugin runs "./check_agent.py {host} {port} {timeout}" on the scenario "healthy" with the extra runs of PLUGIN-OWN-TIMEOUT
    Then PLUGIN-OWN-TIMEOUT passes, judged on the run "held-back answer"
    And the certification as a whole passes

  @PLUGIN-OWN-TIMEOUT
  Scenario: A plug-in that ignores {timeout} and waits for the held-back answer breaks the should-rule: a warning
    Given the plug-in "check_agent.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      if sys.argv[1:2] in (['--help'], ['--version']):
          print('check_agent 1.0 - usage: check_agent.py HOST PORT TIMEOUT')
          sys.exit(3)
      host, port = sys.argv[1], int(sys.argv[2])
      try:
          with socket.create_connection((host, port), timeout=60) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX UNKNOWN - cannot read %s:%d: %s' % (host, port, error))
          sys.exit(3)
      print('PBX OK - %d lines of agent text' % len(text.splitlines()))
      """
    When certify-plugin runs "./check_agent.py {host} {port} {timeout}" on the scenario "healthy" with the extra runs of PLUGIN-OWN-TIMEOUT
    Then PLUGIN-OWN-TIMEOUT warns on the run "held-back answer" because "it does not bound its own run time"
    And the certification as a whole passes: a broken should-rule only warns
