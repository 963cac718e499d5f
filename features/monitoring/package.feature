Feature: The monitoring package
  monitoring-endpoint-and-xmlrpc.md, "Endpoints / Monitoring package": the module provides an
  extension package for the monitoring tool, downloadable at
  `{base_url}/downloads/moduledata/<module_id>/pbx_monitoring.mkp`. The spec does not state the
  package's content and manifest, the value of `<module_id>` or whether the download needs a sign-in
  (MKP-UNSPEC-PACKAGE): the harness takes the id of the module named `Monitoring` (from the target
  file's `pbx.monitoringModuleId`, else from the JSON snapshot's module list), downloads without
  credentials, and checks only that the file is a package the monitoring tool can open: gzip, then
  tar, with the manifests `info` and `info.json`. The services the package yields after discovery
  (MKP-SERVICES-PBX, MKP-SERVICES-SECTIONS) need a monitoring site and are not checked here.

  @MKP-DOWNLOAD
  Scenario: The monitoring package can be downloaded at the module's download URL
    When a client downloads "pbx_monitoring.mkp" from the Monitoring module's download folder
    Then the download succeeds
    And the download is a gzip-compressed tar archive
    And the archive holds the package manifests "info" and "info.json"
