@certify-plugin
Feature: certify-plugin judges what the state and the figures say
  plugin-interface.md, "What the state and the figures say" and "Declared meaning". Four rules need
  no declaration: no data is never OK, the state follows the plug-in's own printed thresholds, an
  unknown the PBX served is not printed as a figure, and a value's UOM is the unit of the figure it
  prints. Two need one: a label declared in `measures` equals its catalog figure, converted into
  the label's UOM, and a service watched with `agree: exact` gives exactly the PBX's state. For each
  rule one small plug-in keeps it and one breaks it and fails.

  @PLUGIN-NOT-OK-WITHOUT-DATA
  Scenario: A phones plug-in that ends UNKNOWN when the PBX gives it nothing keeps the no-data rule
    Given the plug-in "check_phones.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX PHONES UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      rows = dict(row.split(' ', 1) for row in text.split('<<<pbx>>>\n')[-1].split('<<<')[0].splitlines() if ' ' in row)
      if '<<<pbx>>>' not in text or not rows.get('online_phones', '').isdigit():
          print('PBX PHONES UNKNOWN - no phone counts served: %s' % text.strip()[:60])
          sys.exit(3)
      print('PBX PHONES OK - %s phones online' % rows['online_phones'])
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenarios "healthy", "endpoint-down", "host-unlisted" and "render-error"
    Then PLUGIN-NOT-OK-WITHOUT-DATA passes, judged on the runs "endpoint-down", "host-unlisted" and "render-error"
    And the certification as a whole passes

  @PLUGIN-NOT-OK-WITHOUT-DATA
  Scenario: A phones plug-in that says OK when the port refuses breaks the no-data rule and fails
    Given the plug-in "check_phones.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError:
          print('PBX PHONES OK - nothing to report')
          sys.exit(0)
      rows = dict(row.split(' ', 1) for row in text.split('<<<pbx>>>\n')[-1].split('<<<')[0].splitlines() if ' ' in row)
      if '<<<pbx>>>' not in text or not rows.get('online_phones', '').isdigit():
          print('PBX PHONES UNKNOWN - no phone counts served')
          sys.exit(3)
      print('PBX PHONES OK - %s phones online' % rows['online_phones'])
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenarios "healthy" and "endpoint-down"
    Then PLUGIN-NOT-OK-WITHOUT-DATA fails on the run "endpoint-down" because "state OK, but the connection was refused"
    And the certification as a whole fails

  @PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS
  Scenario: A RAM plug-in whose state follows the ranges it prints keeps the own-thresholds rule
    Given the plug-in "check_ram.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      mem = {row.split(':')[0]: int(row.split()[1]) for row in text.split('<<<mem>>>\n')[1].split('<<<')[0].splitlines()}
      used = round(100.0 * (mem['MemTotal'] - mem['MemAvailable']) / mem['MemTotal'])
      state = 2 if used > 90 else 1 if used > 70 else 0
      print('RAM %s - %d%% used | ram_used=%d%%;70;90;0;100' % (('OK', 'WARNING', 'CRITICAL')[state], used, used))
      sys.exit(state)
      """
    When certify-plugin runs "./check_ram.py {host} {port}" on the scenarios "healthy", "ram-warning" and "ram-critical"
    Then PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS passes, judged on the runs "healthy", "ram-warning" and "ram-critical"
    And the certification as a whole passes

  @PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS
  Scenario: A RAM plug-in that exits 0 while printing ram_used=93%;70;90 contradicts its own output and fails
    Given the plug-in "check_ram.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      mem = {row.split(':')[0]: int(row.split()[1]) for row in text.split('<<<mem>>>\n')[1].split('<<<')[0].splitlines()}
      used = round(100.0 * (mem['MemTotal'] - mem['MemAvailable']) / mem['MemTotal'])
      print('RAM OK - %d%% used | ram_used=%d%%;70;90;0;100' % (used, used))
      """
    When certify-plugin runs "./check_ram.py {host} {port}" on the scenarios "healthy" and "ram-critical"
    Then PLUGIN-STATE-FOLLOWS-OWN-THRESHOLDS fails on the run "ram-critical" because "'ram_used'=93% is outside its own crit range 90, but the state is OK"
    And the certification as a whole fails

  @PLUGIN-UNKNOWN-NOT-A-FIGURE
  Scenario: A channels plug-in that leaves out a maximum served as -1 keeps the unknown rule
    Given the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      rows = [r for r in text.split('<<<pbx_channels>>>\n')[1].split('<<<')[0].splitlines() if r.strip()]
      maximum = [int(r.split()[0]) for r in rows if r.endswith('max calls')][0]
      active = len([r for r in rows if not r.endswith('max calls')])
      perf = 'channels=%d;;;0' % active + (' max_calls=%d;;;0' % maximum if maximum >= 0 else '')
      print('CHANNELS OK - %d active | %s' % (active, perf))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenarios "healthy" and "values-unknown"
    Then PLUGIN-UNKNOWN-NOT-A-FIGURE passes, judged on the runs "healthy" and "values-unknown"
    And the certification as a whole passes

  @PLUGIN-UNKNOWN-NOT-A-FIGURE
  Scenario: A channels plug-in that prints max_calls=-1 presents the unknown sentinel as a figure and fails
    Given the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      rows = [r for r in text.split('<<<pbx_channels>>>\n')[1].split('<<<')[0].splitlines() if r.strip()]
      maximum = [int(r.split()[0]) for r in rows if r.endswith('max calls')][0]
      active = len([r for r in rows if not r.endswith('max calls')])
      print('CHANNELS OK - %d active | channels=%d;;;0 max_calls=%d;;;0' % (active, active, maximum))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenarios "healthy" and "values-unknown"
    Then PLUGIN-UNKNOWN-NOT-A-FIGURE fails on the run "values-unknown" because "'max_calls'=-1 is the PBX's -1 sentinel"
    And the certification as a whole fails

  @PLUGIN-UOM-MATCHES-SERVED
  Scenario: A memory plug-in that turns the kB of <<<mem>>> into bytes keeps the unit rule
    Given the plug-in "check_mem.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      mem = {row.split(':')[0]: int(row.split()[1]) for row in text.split('<<<mem>>>\n')[1].split('<<<')[0].splitlines()}
      print('MEM OK | mem_total=%dB;;;0 mem_available=%dB;;;0' % (mem['MemTotal'] * 1024, mem['MemAvailable'] * 1024))
      """
    When certify-plugin runs "./check_mem.py {host} {port}" on the scenarios "healthy", "ram-warning" and "ram-critical"
    Then PLUGIN-UOM-MATCHES-SERVED passes, judged on the runs "healthy", "ram-warning" and "ram-critical"
    And the certification as a whole passes

  @PLUGIN-UOM-MATCHES-SERVED
  Scenario: A memory plug-in that prints the kB of <<<mem>>> with UOM B breaks the unit rule and fails
    Given the plug-in "check_mem.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      mem = {row.split(':')[0]: int(row.split()[1]) for row in text.split('<<<mem>>>\n')[1].split('<<<')[0].splitlines()}
      print('MEM OK | mem_total=%dB;;;0 mem_available=%dB;;;0' % (mem['MemTotal'], mem['MemAvailable']))
      """
    When certify-plugin runs "./check_mem.py {host} {port}" on the scenarios "healthy", "ram-warning" and "ram-critical"
    Then PLUGIN-UOM-MATCHES-SERVED fails on the run "healthy" because "'mem_total'=8388608B equals mem.total, served in kB"
    And the certification as a whole fails

  @PLUGIN-FIGURES-AS-DECLARED
  Scenario: A channels plug-in that counts the channel lines keeps its declared figure in every state
    Given the expectations file:
      """
      plugin: check_channels
      measures:
        channels_in_use: channels.active
      """
    And the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      rows = [r for r in text.split('<<<pbx_channels>>>\n')[1].split('<<<')[0].splitlines() if r.strip()]
      active = len([r for r in rows if not r.endswith('max calls')])
      print('CHANNELS OK - %d in use | channels_in_use=%d;;;0' % (active, active))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenarios "healthy" and "large" and 2 generated states
    Then PLUGIN-FIGURES-AS-DECLARED passes, judged on the runs "healthy", "large" and "generated #2"
    And the certification as a whole passes

  @PLUGIN-FIGURES-AS-DECLARED
  Scenario: A channels plug-in that reports the <N> max calls figure as channels in use breaks its declaration and fails
    Given the expectations file:
      """
      plugin: check_channels
      measures:
        channels_in_use: channels.active
      """
    And the plug-in "check_channels.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      rows = [r for r in text.split('<<<pbx_channels>>>\n')[1].split('<<<')[0].splitlines() if r.strip()]
      in_use = [int(r.split()[0]) for r in rows if r.endswith('max calls')][0]
      print('CHANNELS OK - %d in use | channels_in_use=%d;;;0' % (in_use, in_use))
      """
    When certify-plugin runs "./check_channels.py {host} {port}" on the scenarios "healthy" and "large"
    Then PLUGIN-FIGURES-AS-DECLARED fails on the run "healthy" because "'channels_in_use'=60, but channels.active is served as 7"
    And the certification as a whole fails

  @PLUGIN-STATE-EQUALS-PBX
  Scenario: A backup plug-in that judges each target by its newest run gives exactly the PBX's state
    Given the expectations file:
      """
      plugin: check_backups
      watches:
        - { service: 'PBX Backup*', agree: exact }
      """
    And the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      newest = {}
      for row in text.split('<<<pbx_backups>>>\n')[1].split('<<<')[0].splitlines():
          target, when, result = row.rsplit(' ', 2)
          if target not in newest or int(when) > newest[target][0]:
              newest[target] = (int(when), result)
      failed = sorted(t for t, (when, result) in newest.items() if not result.endswith('successful'))
      print('BACKUPS %s - failed: %s' % ('CRITICAL' if failed else 'OK', ' '.join(failed) or 'none'))
      sys.exit(2 if failed else 0)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy", "backup-failed" and "backup-recovered"
    Then PLUGIN-STATE-EQUALS-PBX passes, judged on the runs "healthy", "backup-failed" and "backup-recovered"
    And the certification as a whole passes

  @PLUGIN-STATE-EQUALS-PBX
  Scenario: A backup plug-in that judges the oldest run of a target is over-severe on backup-recovered and fails
    Given the expectations file:
      """
      plugin: check_backups
      watches:
        - { service: 'PBX Backup*', agree: exact }
      """
    And the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
          text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      oldest = {}
      for row in text.split('<<<pbx_backups>>>\n')[1].split('<<<')[0].splitlines():
          target, when, result = row.rsplit(' ', 2)
          if target not in oldest or int(when) < oldest[target][0]:
              oldest[target] = (int(when), result)
      failed = sorted(t for t, (when, result) in oldest.items() if not result.endswith('successful'))
      print('BACKUPS %s - failed: %s' % ('CRITICAL' if failed else 'OK', ' '.join(failed) or 'none'))
      sys.exit(2 if failed else 0)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy" and "backup-recovered"
    Then PLUGIN-STATE-EQUALS-PBX fails on the run "backup-recovered" because "state CRITICAL, more severe than the PBX's OK"
    And the certification as a whole fails
