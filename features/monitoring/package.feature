Feature: The monitoring package
  monitoring-endpoint-and-xmlrpc.md, "Endpoints / Monitoring package": the module provides an
  extension package for the monitoring tool, downloadable at
  `{base_url}/downloads/moduledata/<module_id>/pbx_monitoring.mkp`. The spec does not state the
  package's content and manifest, the original file name (`pbx_monitoring.mkp` is a neutral
  rendering), the value of `<module_id>` or whether the download needs a sign-in
  (MKP-UNSPEC-PACKAGE, MON-UNSPEC-NEUTRAL-NAMES). So the harness takes the module id from the target
  file's `pbx.monitoringModuleId` (else the id of the module named `Monitoring` in the JSON
  snapshot), the file name and any sign-in from `pbx.monitoringPackage` (default: the neutral name,
  no credentials), and checks only what the clause fixes: the package can be downloaded there, a
  200 answer whose body is an extension package of the monitoring tool, i.e. a gzip-compressed tar
  archive (`.mkp`); its content and manifest are checked by the unit tests of simulators/pbx/mkp.
  The services the package yields after discovery (MKP-SERVICES-PBX, MKP-SERVICES-SECTIONS) need a
  monitoring site and are not checked here.

  @MKP-DOWNLOAD
  Scenario: The monitoring package can be downloaded at the module's download URL
    When a client downloads the monitoring package from the Monitoring module's download folder
    Then the download answers 200 with a non-empty body
    And the download is a gzip-compressed tar archive
