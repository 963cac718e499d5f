Feature: Evaluation of the answer: body as text, charset, matchers, formatter, HTML decoding, trimming and field mappings
  web-resolver.md, "Search provider configuration (type HTTP)", "Response expected from the customer
  endpoint" and "Evaluation in two stages". The index variables `{0}`, `{1}`, … are read from the
  resolution the PBX control plane reports; the caller-ID result is read there too. Left open and not
  asserted: the charset assumed without one in the Content-Type (RESOLVER-UNSPEC-CHARSET), so only
  ASCII bodies come without one; references to missing groups and empty formatters
  (RESOLVER-UNSPEC-FORMATTER); and how the shown name is composed from first name, last name and
  company (RESOLVER-UNSPEC-DISPLAY), so mappings are checked field by field. Matchers use constructs
  that Java and JavaScript read alike (no `$` before `\r\n`, ASCII classes only). Of
  RESOLVER-EVAL-OPTION-UI only the UI integration is checked: the spec names a context URL but no
  provider field or setting that defines it, nor how a value enters it, so there is nothing to
  observe it by.

  Background:
    Given a customer endpoint

  @RESOLVER-CALLER-NAME
  Scenario: The value extracted from the body reaches the caller-ID display of the incoming call
    Given the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID of the call shows the last name "Anna Schmidt"

  @RESOLVER-RESPONSE-AS-TEXT
  Scenario: A JSON body is read as text: escape sequences reach the matcher as written
    Given the customer endpoint answers with the content type "application/json; charset=utf-8" and the body
      """
      {"id": 7, "name": "M\u00fcller \"Mo\"", "tags": ["a", "b"]}
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher             | formatter |
      | "name": "(.*?)", "t | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are, in order:
      | M\u00fcller \"Mo\" |

  @RESOLVER-RESPONSE-AS-TEXT
  Scenario: An XML body is read as text: CDATA sections and tags reach the matcher as written
    Given the customer endpoint answers with the content type "application/xml; charset=utf-8" and the body
      """
      <?xml version="1.0"?>
      <contact><name><![CDATA[Anna]]></name><org>Beispiel<br/>GmbH</org></contact>
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher            | formatter |
      | <name>(.*?)</name> | \1        |
      | <org>(.*?)</org>   | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "<![CDATA[Anna]]>" and "Beispiel<br/>GmbH"

  @RESOLVER-RESPONSE-AS-TEXT
  Scenario: A body without any Content-Type is evaluated as text too
    Given the customer endpoint answers without a Content-Type with the body
      """
      name=Anna Schmidt
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher     | formatter |
      | name=(\w+) | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Anna"

  @RESOLVER-RESPONSE-AS-TEXT
  Scenario: For generated raw snippets and content types the matcher sees the body as written
    Then for generated snippets in JSON, XML, HTML and plain-text bodies the index variable is the snippet as written (15 runs)

  @RESOLVER-RESPONSE-CHARSET
  Scenario Outline: The charset named in the Content-Type decodes the body (<charset>)
    Given the customer endpoint answers "name=Jürgen Müller-Lüdenscheidt" encoded as <charset> with the content type "text/plain; charset=<charset>"
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher     | formatter |
      | ^name=(.*)$ | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Jürgen Müller-Lüdenscheidt"

    Examples:
      | charset    |
      | utf-8      |
      | iso-8859-1 |
      | utf-16le   |

  @RESOLVER-RESPONSE-CHARSET
  Scenario Outline: In a body declared <charset>, the byte <byte> is the character <char>, not what windows-1252 makes of it
    Given the customer endpoint answers the ASCII text "name=A_B" with the byte <byte> in place of "_" and the content type "text/plain; charset=<charset>"
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher     | formatter |
      | ^name=(.*)$ | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the code points of the only index variable are "U+0041 <char> U+0042"

    Examples:
      | charset      | byte | char   |
      | iso-8859-1   | 0x80 | U+0080 |
      | ISO-8859-1   | 0x96 | U+0096 |
      | latin1       | 0x9F | U+009F |
      | windows-1252 | 0x80 | U+20AC |
      | windows-1252 | 0x96 | U+2013 |

  @RESOLVER-RESPONSE-CHARSET
  Scenario: The declared charset is used even when the bytes are in another one
    Given the customer endpoint answers "name=Jürgen Müller" encoded as utf-8 with the content type "text/plain; charset=iso-8859-1"
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher     | formatter |
      | ^name=(.*)$ | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "JÃ¼rgen MÃ¼ller"

  @RESOLVER-MATCHER-DOTALL
  Scenario: A dot in a matcher also matches a line break
    Given the customer endpoint answers with the content type "text/html; charset=utf-8" and the body
      """
      <tr><td>Name:</td>
      <td>Anna Schmidt</td></tr>
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher                 | formatter |
      | Name:</td>.<td>([^<]*)< | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Anna Schmidt"

  @RESOLVER-MATCHER-DOTALL
  Scenario: For generated line breaks between the label and the value, a dot crosses them
    Then for generated names and line breaks a matcher whose dots must cross the line breaks finds the name (15 runs)

  @RESOLVER-MATCHER-MULTILINE
  Scenario: ^ and $ match at the start and end of every line
    Given the customer endpoint answers with the content type "text/plain; charset=utf-8" and the body
      """
      id=17
      name=Anna Schmidt
      city=Berlin
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher      | formatter |
      | ^name=(.*?)$ | \1        |
      | ^city=(.*?)$ | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Anna Schmidt" and "Berlin"

  @RESOLVER-MATCHER-MULTILINE
  Scenario: For generated lines around the wanted one, ^ and $ find it at its line
    Then for generated key-value lines a matcher anchored with ^ and $ finds the value of its line (15 runs)

  @RESOLVER-EVAL-PARSER-ORDER
  Scenario: Parsers run in their order and their results become {0}, {1}, {2} in that order
    Given the customer endpoint answers with the body
      """
      {"first": "Anna", "last": "Schmidt", "company": "Beispiel GmbH"}
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher                  | formatter |
      | "company": "([^"]*)"     | \1        |
      | "first": "([^"]*)"       | \1        |
      | "nothing": "([^"]*)"     | \1        |
      | "last": "([^"]*)"        | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Beispiel GmbH", "Anna", "" and "Schmidt"

  @RESOLVER-EVAL-PARSER-ORDER
  Scenario: For generated orders of parsers the index variables follow the parser order
    Then for generated orders of parsers the index variables follow that order (15 runs)

  @RESOLVER-EVAL-FIRST-MATCH
  Scenario: Only the first of several records counts
    Given the customer endpoint answers with the body
      """
      [{"name": "Anna Schmidt"}, {"name": "Berta Braun"}, {"name": "Carl Clausen"}]
      """
    And the PBX has a provider for the customer endpoint
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Anna Schmidt"

  @RESOLVER-EVAL-FIRST-MATCH
  Scenario: For generated lists of records only the first match counts
    Then for generated lists of several records the index variable is the first record's (15 runs)

  @RESOLVER-EVAL-GROUPS
  Scenario: The formatter takes capture groups as \1, \2 and the whole match as \0
    Given the customer endpoint answers with the body
      """
      {"first":"Anna","last":"Schmidt"}
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher                               | formatter      |
      | "first":"(\w+)","last":"(\w+)"        | \2, \1         |
      | "last":"\w+"                          | [\0]           |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are, in order:
      | Schmidt, Anna      |
      | ["last":"Schmidt"] |

  @RESOLVER-EVAL-GROUPS
  Scenario: For generated groups and formatters the back-references take the groups
    Then for generated capture groups and formatters the formatter result takes the groups it references (20 runs)

  @RESOLVER-EVAL-HTML-DECODE
  Scenario: The formatter result is HTML-decoded
    Given the customer endpoint answers with the content type "text/html; charset=utf-8" and the body
      """
      <td class="name">M&uuml;ller &amp; S&ouml;hne &#8211; Caf&#xE9; &lt;Bonn&gt; &quot;Alt&quot;</td>
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher                        | formatter |
      | <td class="name">([^<]*)</td> | \1        |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are, in order:
      | Müller & Söhne – Café <Bonn> "Alt" |

  @RESOLVER-EVAL-HTML-DECODE
  Scenario: For generated text written with character references the result is the decoded text
    Then for generated text written with named, decimal and hexadecimal character references the index variable is the decoded text (20 runs)

  @RESOLVER-EVAL-TRIM
  Scenario: The formatter result is trimmed of white space at both ends
    Given the customer endpoint answers with the content type "text/html; charset=utf-8" and the body
      """
      <td>
         Anna Schmidt   
      </td>
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher         | formatter |
      | <td>(.*?)</td>  | \1        |
      | <td>\s*(\w+)    | \n \1 \n  |
    When the PBX resolves the caller number "030 1234567"
    Then the index variables are "Anna Schmidt" and "Anna"

  @RESOLVER-EVAL-TRIM
  Scenario: For generated white space around the result it is trimmed away
    Then for generated names with spaces, tabs and line breaks around them the index variable is the bare name (15 runs)

  @RESOLVER-EVAL-OPTION-UI
  Scenario: A parser with the option UI passes its result to the UI integration, one without does not
    Given the PBX has a provider for the customer endpoint with the parsers
      | matcher                | formatter | option UI |
      | "name":"([^"]*)"       | \1        | yes       |
      | "company":"([^"]*)"    | \1        | no        |
    When the UI integration queries the number "030 1234567"
    Then the UI integration receives "Anna Schmidt"
    And the UI integration does not receive "Beispiel GmbH"

  @RESOLVER-EVAL-FIELD-MAPPINGS
  Scenario Outline: Field mappings compose first name, last name and company from the index variables
    Given the customer endpoint answers with the body
      """
      {"first": "Anna", "last": "Schmidt", "company": "Beispiel GmbH", "dept": "Vertrieb"}
      """
    And the PBX has a provider for the customer endpoint with the parsers
      | matcher              | formatter |
      | "first": "([^"]*)"   | \1        |
      | "last": "([^"]*)"    | \1        |
      | "company": "([^"]*)" | \1        |
      | "dept": "([^"]*)"    | \1        |
    And the provider's field mappings are "<first>", "<last>" and "<company>"
    When the PBX resolves the caller number "030 1234567"
    Then the caller ID of the call has the first name "<first name>", the last name "<last name>" and the company "<company name>"

    Examples:
      | first | last | company   | first name | last name | company name             |
      | {0}   | {1}  | {2}       | Anna       | Schmidt   | Beispiel GmbH            |
      | {0}   | {1}  | {2} ({3}) | Anna       | Schmidt   | Beispiel GmbH (Vertrieb) |
      | {1}   | {0}  | {3}       | Schmidt    | Anna      | Vertrieb                 |
