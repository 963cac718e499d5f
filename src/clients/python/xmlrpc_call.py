"""One XML-RPC call with Python's own xmlrpc.client, for the Gherkin steps.

The steps run every XML-RPC scenario through this script when PBX_CONFORMANCE_XMLRPC_CLIENT=python,
so the same scenarios also pass through a client the project did not write: Python marshals the
request and unmarshals the answer. Reads one JSON object from stdin:
  {"url": "...", "method": "...", "params": [...], "timeout": seconds, "sourceAddress": "127.0.0.1"|null}
and prints one JSON object: {"kind": "value", "value": ...} | {"kind": "fault", ...} |
{"kind": "http-error", ...} | {"kind": "transport-error", "message": ...}.
"""

import http.client
import json
import sys
import urllib.parse
import xmlrpc.client


class BoundTransport(xmlrpc.client.Transport):
    """A transport with a timeout and an optional local address to connect from."""

    def __init__(self, timeout, source_address):
        super().__init__()
        self._timeout = timeout
        self._source_address = source_address

    def make_connection(self, host):
        if self._connection and host == self._connection[0]:
            return self._connection[1]
        chost, self._extra_headers, _ = self.get_host_info(host)
        source = (self._source_address, 0) if self._source_address else None
        self._connection = host, http.client.HTTPConnection(chost, timeout=self._timeout, source_address=source)
        return self._connection[1]


def plain(value):
    """JSON-encodable form of an unmarshalled XML-RPC value (types kept: bool stays bool)."""
    if isinstance(value, xmlrpc.client.DateTime):
        return value.value
    if isinstance(value, xmlrpc.client.Binary):
        return value.data.decode("latin-1")
    raise TypeError(f"cannot encode {type(value).__name__}")


def main():
    request = json.load(sys.stdin)
    url = request["url"]
    if urllib.parse.urlsplit(url).scheme != "http":
        print(json.dumps({"kind": "transport-error", "message": "the Python client here speaks plain HTTP only"}))
        return
    transport = BoundTransport(request.get("timeout", 10), request.get("sourceAddress"))
    proxy = xmlrpc.client.ServerProxy(url, transport=transport, allow_none=False)
    try:
        value = getattr(proxy, request["method"])(*request["params"])
        out = {"kind": "value", "value": value}
    except xmlrpc.client.Fault as fault:
        out = {"kind": "fault", "faultCode": fault.faultCode, "faultString": fault.faultString}
    except xmlrpc.client.ProtocolError as error:
        out = {"kind": "http-error", "status": error.errcode, "message": error.errmsg, "body": ""}
    except xmlrpc.client.ResponseError as error:
        out = {"kind": "http-error", "status": 200, "message": f"not a methodResponse: {error}", "body": ""}
    except Exception as error:  # noqa: BLE001 - every other failure is a transport error for the step
        out = {"kind": "transport-error", "message": f"{type(error).__name__}: {error}"}
    print(json.dumps(out, default=plain))


if __name__ == "__main__":
    main()
