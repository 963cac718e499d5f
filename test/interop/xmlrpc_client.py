"""Calls the three monitoring XML-RPC methods with Python's own xmlrpc.client.

Usage: xmlrpc_client.py <base_url> <login> <password> [<instance>]

The credentials value is computed here with hashlib, independently of the simulator:
<login>:<hex sha512(login + "*" + hex sha512(password))>. Prints one JSON object.
"""

import hashlib
import json
import sys
import urllib.parse
import xmlrpc.client


def sha512_hex(text: str) -> str:
    return hashlib.sha512(text.encode("utf-8")).hexdigest()


def auth_value(login: str, password: str) -> str:
    return login + ":" + sha512_hex(login + "*" + sha512_hex(password))


def call(proxy: xmlrpc.client.ServerProxy, method: str) -> dict:
    try:
        value = getattr(proxy, method)({})
        return {"result": value}
    except xmlrpc.client.Fault as fault:
        return {"fault": {"faultCode": fault.faultCode, "faultString": fault.faultString}}


def main() -> None:
    base_url, login, password = sys.argv[1:4]
    instance = sys.argv[4] if len(sys.argv) > 4 else "Monitoring"
    query = urllib.parse.urlencode({"de.vendor.pbx.auth": auth_value(login, password)})
    with xmlrpc.client.ServerProxy(base_url + "/xml-rpc?" + query) as signed_in, xmlrpc.client.ServerProxy(
        base_url + "/xml-rpc"
    ) as anonymous:
        out = {
            "authValue": auth_value(login, password),
            "getMonitoringData": call(signed_in, instance + ".GetMonitoringData"),
            "getMonitoringDataXML": call(signed_in, instance + ".GetMonitoringDataXML"),
            "isActiveDirectoryEnabled": call(anonymous, instance + ".isActiveDirectoryEnabled"),
            "withoutLogin": call(anonymous, instance + ".GetMonitoringData"),
            "unknownMethod": call(signed_in, instance + ".NoSuchMethod"),
        }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
