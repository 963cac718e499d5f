@certify-plugin
Feature: certify-plugin judges what a plug-in reports against what the PBX served
  plugin-interface.md, "What the plug-in reports": unknown entries are ignored, the figures come
  from what was served, and the state agrees with the PBX's own judgement of the services the
  plug-in watches. The harness knows everything it served, so it judges these without hand-written
  expected states: the `extension` scenario against its plain twin `healthy`, figure tracking over
  every run (and generated states), and the `watches` key of an expectations file that holds only
  `plugin` and `watches`. One small plug-in keeps each rule, one breaks it and fails.

  @PLUGIN-IGNORES-UNKNOWN
  Scenario: A backup plug-in that cuts its section by the exact header reports extension as healthy
    Given the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX BACKUPS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      newest, inside = {}, False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx_backups>>>'
          elif inside and row.strip():
              parts = row.split()
              if len(parts) < 3 or not parts[-2].isdigit():
                  print('PBX BACKUPS UNKNOWN - unreadable backup line: %s' % row)
                  sys.exit(3)
              target, when, result = ' '.join(parts[:-2]), int(parts[-2]), parts[-1]
              if target not in newest or when > newest[target][0]:
                  newest[target] = (when, result)
      failed = sorted(t for t, (when, result) in newest.items() if not result.endswith('.successful'))
      state = 'CRITICAL' if failed else 'OK'
      print('PBX BACKUPS %s - %d of %d targets failed %s' % (state, len(failed), len(newest), ' '.join(failed)))
      sys.exit(2 if failed else 0)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy" and "extension"
    Then PLUGIN-IGNORES-UNKNOWN passes, judged on the run "extension"
    And the certification as a whole passes

  @PLUGIN-IGNORES-UNKNOWN
  Scenario: A backup plug-in that cuts its section by a prefix trips over an unknown section and fails
    Given the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX BACKUPS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      newest, inside = {}, False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row.startswith('<<<pbx_backups')
          elif inside and row.strip():
              parts = row.split()
              if len(parts) < 3 or not parts[-2].isdigit():
                  print('PBX BACKUPS UNKNOWN - unreadable backup line: %s' % row)
                  sys.exit(3)
              target, when, result = ' '.join(parts[:-2]), int(parts[-2]), parts[-1]
              if target not in newest or when > newest[target][0]:
                  newest[target] = (when, result)
      failed = sorted(t for t, (when, result) in newest.items() if not result.endswith('.successful'))
      state = 'CRITICAL' if failed else 'OK'
      print('PBX BACKUPS %s - %d of %d targets failed %s' % (state, len(failed), len(newest), ' '.join(failed)))
      sys.exit(2 if failed else 0)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy" and "extension"
    Then PLUGIN-IGNORES-UNKNOWN fails on the run "extension" because "state UNKNOWN differs from the plain twin healthy (OK): unknown entries must be ignored"
    And the certification as a whole fails

  @PLUGIN-FIGURES-FOLLOW-SERVED
  Scenario: A phones plug-in that prints only what was served keeps its figures with the served ones
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
      rows, inside = {}, False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx>>>'
          elif inside and ' ' in row:
              key, value = row.split(' ', 1)
              rows[key] = value.strip()
      try:
          online, known = int(rows['online_phones']), int(rows['known_phones'])
      except (KeyError, ValueError):
          print('PBX PHONES UNKNOWN - no phone counts served: %s' % text.strip()[:80])
          sys.exit(3)
      if online < 0 or known < 0:
          print('PBX PHONES UNKNOWN - the PBX does not know its phone counts')
          sys.exit(3)
      state = 2 if known > 0 and online == 0 else 0
      print('PBX PHONES %s - %d of %d phones online | online=%d;;;0;%d known=%d' % (('OK', '', 'CRITICAL')[state], online, known, online, known, known))
      sys.exit(state)
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenarios "healthy", "large", "all-phones-offline", "endpoint-down" and "render-error" and 3 generated states
    Then PLUGIN-FIGURES-FOLLOW-SERVED passes, judged on the runs "healthy", "large", "all-phones-offline" and "generated #3"
    And the certification as a whole passes

  @PLUGIN-FIGURES-FOLLOW-SERVED
  Scenario: A phones plug-in that prints zeros when the PBX refuses presents invented figures as data and fails
    Given the plug-in "check_phones.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError:
          print('PBX PHONES CRITICAL - 0 phones online | online=0;;;0 known=0')
          sys.exit(2)
      rows, inside = {}, False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx>>>'
          elif inside and ' ' in row:
              key, value = row.split(' ', 1)
              rows[key] = value.strip()
      online, known = int(rows['online_phones']), int(rows['known_phones'])
      state = 2 if known > 0 and online == 0 else 0
      print('PBX PHONES %s - %d of %d phones online | online=%d;;;0;%d known=%d' % (('OK', '', 'CRITICAL')[state], online, known, online, known, known))
      sys.exit(state)
      """
    When certify-plugin runs "./check_phones.py {host} {port}" on the scenarios "healthy", "large", "all-phones-offline" and "endpoint-down"
    Then PLUGIN-FIGURES-FOLLOW-SERVED fails on the run "endpoint-down" because "where the PBX served nothing"
    And the certification as a whole fails

  @PLUGIN-STATE-AGREES-WITH-PBX
  Scenario: A backup plug-in that judges each target by its own newest run agrees with the PBX's local checks
    Given the expectations file:
      """
      plugin: check_backups
      watches: ['PBX Backup*']
      """
    And the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX BACKUPS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      newest, inside = {}, False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx_backups>>>'
          elif inside and row.strip():
              parts = row.split()
              target, when, result = ' '.join(parts[:-2]), int(parts[-2]), parts[-1]
              if target not in newest or when > newest[target][0]:
                  newest[target] = (when, result)
      failed = sorted(t for t, (when, result) in newest.items() if not result.endswith('.successful'))
      state = 'CRITICAL' if failed else 'OK'
      print('PBX BACKUPS %s - %d of %d targets failed %s' % (state, len(failed), len(newest), ' '.join(failed)))
      sys.exit(2 if failed else 0)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy", "backup-failed" and "backup-failed-latest"
    Then PLUGIN-STATE-AGREES-WITH-PBX passes, judged on the runs "healthy", "backup-failed" and "backup-failed-latest"
    And the certification as a whole passes

  @PLUGIN-STATE-AGREES-WITH-PBX
  Scenario: A backup plug-in that looks only at the newest run of all says OK on backup-failed and fails
    Given the expectations file:
      """
      plugin: check_backups
      watches: ['PBX Backup*']
      """
    And the plug-in "check_backups.py":
      """
      #!/usr/bin/env python3
      import socket, sys
      try:
          with socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=8) as s:
              text = b''.join(iter(lambda: s.recv(65536), b'')).decode('utf-8', 'replace')
      except OSError as error:
          print('PBX BACKUPS UNKNOWN - cannot read: %s' % error)
          sys.exit(3)
      runs, inside = [], False
      for row in text.splitlines():
          if row.startswith('<<<'):
              inside = row == '<<<pbx_backups>>>'
          elif inside and row.strip():
              parts = row.split()
              runs.append((int(parts[-2]), ' '.join(parts[:-2]), parts[-1]))
      when, target, result = max(runs)
      if result.endswith('.successful'):
          print('PBX BACKUPS OK - the newest backup (%s) succeeded' % target)
          sys.exit(0)
      print('PBX BACKUPS CRITICAL - the newest backup (%s) failed: %s' % (target, result))
      sys.exit(2)
      """
    When certify-plugin runs "./check_backups.py {host} {port}" on the scenarios "healthy", "backup-failed" and "backup-failed-latest"
    Then PLUGIN-STATE-AGREES-WITH-PBX fails on the run "backup-failed" because "state OK, but the PBX gives 'PBX Backup SMB 192.0.2.6:/Backup' CRITICAL"
    And PLUGIN-STATE-AGREES-WITH-PBX passes on the run "backup-failed-latest"
    And the certification as a whole fails
