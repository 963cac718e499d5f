Feature: Formats, paths, query parameter and HTTP mode of the data endpoint
  monitoring-endpoint-and-xmlrpc.md, "Endpoints / Data endpoint": one TCP service delivers the same
  snapshot as agent text, XML or JSON. The HTTP path or the `format` query parameter chooses the
  format; a client that sends no HTTP request receives the default format as raw text. HTTP answers
  carry Content-Type, Content-Length and `Connection: close`. The status of a successful answer is not
  stated (MON-UNSPEC-HTTP-DETAILS), so scenarios only require a 2xx status there.

  @MON-RAW-MODE
  Scenario: A monitoring host that sends no request receives the agent text as raw text
    When a monitoring host connects without sending a request
    Then it receives the agent text
    And the reply is raw text without an HTTP status line or headers
    And the server closes the connection after the reply

  @MON-GET-CHECKMK @MON-GET-XML @MON-GET-JSON
  Scenario Outline: GET <path> returns the <snapshot> with Content-Type "<content type>"
    When a monitoring host requests "<path>"
    Then the answer is a successful HTTP response
    And it receives the <snapshot>
    And the Content-Type is "<content type>"

    @MON-GET-CHECKMK
    Examples: agent text
      | path     | snapshot      | content type                    |
      | /checkmk | agent text    | text/plain; charset=utf-8       |

    @MON-GET-XML
    Examples: XML
      | path     | snapshot      | content type                    |
      | /xml     | XML snapshot  | application/xml; charset=utf-8  |

    @MON-GET-JSON
    Examples: JSON
      | path     | snapshot      | content type                    |
      | /json    | JSON snapshot | application/json; charset=utf-8 |

  @MON-QUERY-FORMAT
  Scenario Outline: The query parameter format=<token> selects the <snapshot>
    When a monitoring host requests "<path>"
    Then the answer is a successful HTTP response
    And it receives the <snapshot>

    Examples:
      | path            | token   | snapshot      |
      | /?format=checkmk | checkmk | agent text    |
      | /?format=xml     | xml     | XML snapshot  |
      | /?format=json    | json    | JSON snapshot |
      | /checkmk         | checkmk | agent text    |

  @MON-QUERY-OVERRIDES-PATH
  Scenario Outline: The format parameter overrides the path in <path>
    When a monitoring host requests "<path>"
    Then the answer is a successful HTTP response
    And it receives the <snapshot>

    Examples:
      | path                  | snapshot      |
      | /xml?format=json      | JSON snapshot |
      | /json?format=checkmk  | agent text    |
      | /checkmk?format=xml   | XML snapshot  |
      | /status?format=json   | JSON snapshot |

  @MON-QUERY-FORMAT @MON-QUERY-OVERRIDES-PATH
  Scenario: Whatever the path, a known format parameter decides the format
    Then every generated request with a known format parameter receives the format it names (25 runs)

  @MON-UNKNOWN-PATH
  Scenario Outline: The unknown path <path> returns the default format, not an error
    When a monitoring host requests "<path>"
    Then the answer is a successful HTTP response
    And it receives the agent text

    Examples:
      | path           |
      | /              |
      | /index.html    |
      | /metrics       |
      | /check_mk      |
      | /api/v1/status |

  @MON-UNKNOWN-PATH
  Scenario: Generated unknown paths return the default format, never an error
    Then every generated request for an unknown path receives the agent text as a successful response (25 runs)

  @MON-UNKNOWN-FORMAT
  Scenario Outline: The unknown format value in <path> returns the default format, not an error
    When a monitoring host requests "<path>"
    Then the answer is a successful HTTP response
    And it receives the agent text

    Examples:
      | path                  |
      | /?format=yaml         |
      | /?format=html         |
      | /?format=             |
      | /?format=agent        |
      | /status?format=csv    |

  @MON-UNKNOWN-FORMAT
  Scenario: Generated unknown format values return the default format, never an error
    Then every generated request with an unknown format value receives the agent text as a successful response (25 runs)

  @MON-DEFAULT-FORMAT-CONFIGURABLE
  Scenario Outline: After the default format is set to <token>, silent clients and unknown paths receive the <snapshot>
    Given the operator sets the default format to "<token>"
    When a monitoring host connects without sending a request
    Then it receives the <snapshot>
    When a monitoring host requests "/no-such-path"
    Then the answer is a successful HTTP response
    And it receives the <snapshot>

    Examples:
      | token | snapshot      |
      | xml   | XML snapshot  |
      | json  | JSON snapshot |

  @MON-HTTP-HEADERS
  Scenario Outline: The HTTP answer to <path> carries Content-Type, Content-Length and Connection: close
    When a monitoring host requests "<path>"
    Then the answer carries the header fields Content-Type, Content-Length and "Connection: close"
    And the server closes the connection after the reply

    Examples:
      | path          |
      | /checkmk      |
      | /xml          |
      | /json         |
      | /?format=json |
      | /unknown      |

  @MON-HTTP-CONTENT-LENGTH
  Scenario Outline: Content-Length of the answer to <path> equals the byte length of its body
    When a monitoring host requests "<path>"
    Then Content-Length equals the byte length of the body

    Examples:
      | path          |
      | /checkmk      |
      | /xml          |
      | /json         |
      | /?format=xml  |
      | /unknown      |

  @MON-HTTP-CONTENT-LENGTH
  Scenario: Content-Length equals the body's byte length for generated requests
    Then for every generated GET request Content-Length equals the byte length of the body (25 runs)

  @MON-HTTP-CONTENT-LENGTH
  Scenario: Content-Length counts bytes, not characters, when names are outside ASCII
    Given the operator names a module instance "Überwachung Süd"
    When a monitoring host requests "/json"
    Then Content-Length equals the byte length of the body

  @MON-HTTP-METHODS
  Scenario Outline: A <method> request line is accepted and answered in HTTP mode
    When a monitoring host sends a "<method>" request for "/checkmk"
    Then the answer is a successful HTTP response
    And the answer carries the header fields Content-Type, Content-Length and "Connection: close"

    Examples:
      | method  |
      | GET     |
      | POST    |
      | HEAD    |
      | OPTIONS |

  @MON-HTTP-METHODS
  Scenario: GET, POST, HEAD and OPTIONS are accepted on generated paths
    Then every generated request with method GET, POST, HEAD or OPTIONS is answered in HTTP mode with a successful status (25 runs)

  @MON-UTF8
  Scenario: Raw output is UTF-8 also for names outside ASCII
    Given the operator names a module instance "Überwachung Süd"
    When a monitoring host connects without sending a request
    Then the reply is valid UTF-8 and contains "Überwachung Süd"

  @MON-UTF8
  Scenario Outline: The answer to <path> is UTF-8 also for names outside ASCII
    Given the operator names a module instance "Überwachung Süd"
    When a monitoring host requests "<path>"
    Then the reply is valid UTF-8 and contains "Überwachung Süd"

    Examples:
      | path     |
      | /checkmk |
      | /xml     |
      | /json    |
