Feature: The snapshot as XML
  monitoring-endpoint-and-xmlrpc.md, "Resources and their fields / Snapshot as XML (`GET /xml`)": root
  `pbx` with the listed children and their children and attributes. The complete child lists of
  appliance, security and java and the content of raid are not shown (MON-UNSPEC-XML-CHILDREN), so
  those are checked as "possibly among more". Extensions are additive, so no scenario forbids extra
  children or attributes. `engineUptime` is a neutral rendering whose original name carries the
  telephony engine's product name (MON-UNSPEC-NEUTRAL-NAMES): a target file may name the original
  attribute in `pbx.originalNames.engineUptime`; the neutral name is the default.

  @MON-XML-ROOT
  Scenario: The XML snapshot is a well-formed document with the root element pbx
    When a monitoring host requests "/xml"
    Then the body is a well-formed XML document with the root element "pbx"

  @MON-XML-CHILDREN
  Scenario: The root pbx has the twelve listed children
    When a monitoring host requests "/xml"
    Then the XML root has the children
      | appliance | license | security | sip | channels | accounts | peers | sipProviders | modules | backups | database | java |

  @MON-XML-RAID
  Scenario: pbx has a raid child only while RAID is configured
    Given the operator configures a RAID on the PBX
    When a monitoring host requests "/xml"
    Then the XML root has a "raid" child
    When the operator removes the RAID configuration
    And a monitoring host requests "/xml"
    Then the XML root has no "raid" child

  @MON-XML-APPLIANCE
  Scenario: appliance has type, serial, maxUsers, maxConnections, pbxVersion and debugMode among its children
    When a monitoring host requests "/xml"
    Then the XML element "appliance" has the children
      | type | serial | maxUsers | maxConnections | pbxVersion | debugMode |

  @MON-XML-LICENSE
  Scenario: license has the children owner and maxUsers
    When a monitoring host requests "/xml"
    Then the XML element "license" has the children
      | owner | maxUsers |

  @MON-XML-SECURITY
  Scenario: security has passwordCheck and attackDetection among its children
    When a monitoring host requests "/xml"
    Then the XML element "security" has the children
      | passwordCheck | attackDetection |

  @MON-XML-SIP
  Scenario: sip has the children localhostStatus, knownPhones, onlinePhones and ipChangedPhones
    When a monitoring host requests "/xml"
    Then the XML element "sip" has the children
      | localhostStatus | knownPhones | onlinePhones | ipChangedPhones |

  @MON-XML-CHANNELS-ATTRIBUTES
  Scenario: channels has the attributes max, last5min and engineUptime, the last one a text
    When a monitoring host requests "/xml"
    Then the XML element "channels" has the attributes
      | max | last5min | engineUptime |
    And the "engineUptime" attribute of "channels" holds a text

  @MON-XML-CHANNELS-ACTIVE
  Scenario Outline: channels has one channel child per active channel (<count> active)
    Given the PBX has <count> active channels
    When a monitoring host requests "/xml"
    Then the XML element "channels" has <count> "channel" children

    Examples:
      | count |
      | 0     |
      | 1     |
      | 9     |

  @MON-XML-ACCOUNTS
  Scenario: accounts is an empty element with the six count attributes
    When a monitoring host requests "/xml"
    Then the XML element "accounts" is empty
    And the XML element "accounts" has the attributes
      | total | admin | active | available | ringing | unavailable |

  @MON-XML-PEERS
  Scenario: peers has peer children with the attributes name, ipaddr and lastms
    When a monitoring host requests "/xml"
    Then the XML element "peers" has "peer" children, each with the attributes
      | name | ipaddr | lastms |

  @MON-XML-SIP-PROVIDERS
  Scenario: sipProviders has registration children holding text
    When a monitoring host requests "/xml"
    Then the XML element "sipProviders" has "registration" children, each holding a text

  @MON-XML-MODULES
  Scenario: modules has module children with name, version and vendor and instance children
    When a monitoring host requests "/xml"
    Then the XML element "modules" has "module" children, each with the attributes
      | name | version | vendor |
    And every "module" child of "modules" has "instance" children

  @MON-XML-BACKUPS
  Scenario: backups has backup children with the attributes location, time and message
    When a monitoring host requests "/xml"
    Then the XML element "backups" has "backup" children, each with the attributes
      | location | time | message |

  @MON-XML-DATABASE
  Scenario: database is an empty element with the attributes databaseSize and cdrSize
    When a monitoring host requests "/xml"
    Then the XML element "database" is empty
    And the XML element "database" has the attributes
      | databaseSize | cdrSize |

  @MON-XML-JAVA
  Scenario: java has vmName, heapUsed and heapMax among its children
    When a monitoring host requests "/xml"
    Then the XML element "java" has the children
      | vmName | heapUsed | heapMax |

  @MON-XML-NOT-LOCAL
  Scenario: The /xml snapshot is not the local document of GetMonitoringDataXML
    When a monitoring host requests "/xml"
    And the monitoring client calls "GetMonitoringDataXML" with an empty struct
    Then the body is a well-formed XML document with the root element "pbx"
    And the XML-RPC data is an XML document with the root element "local"
