"""An implementation of DSSE v1 with Ed25519 that shares no code with pbx-conformance.

Built from the DSSE protocol (v1.0.2, "Signature Definition", "Protocol") with Python's standard
library and the `cryptography` package:

  verify ENVELOPE PUBLIC_PEM   prints {"verified", "keyid", "pae_sha256", "statement"} as JSON
  sign PAYLOAD PRIVATE_PEM     prints a DSSE JSON envelope of PAYLOAD's bytes
                               (payloadType application/vnd.in-toto+json)
"""

import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization

PAYLOAD_TYPE = "application/vnd.in-toto+json"


def pae(payload_type: bytes, body: bytes) -> bytes:
    # PAE(type, body) = "DSSEv1" + SP + LEN(type) + SP + type + SP + LEN(body) + SP + body,
    # LEN = ASCII decimal byte length without leading zeros.
    return b" ".join([b"DSSEv1", str(len(payload_type)).encode("ascii"), payload_type,
                      str(len(body)).encode("ascii"), body])


def keyid(public_key) -> str:
    der = public_key.public_bytes(serialization.Encoding.DER,
                                  serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(der).hexdigest()


def b64decode(text: str) -> bytes:
    # DSSE: standard or URL-safe Base64; validate=True refuses characters outside the alphabet.
    padded = text + "=" * (-len(text) % 4)
    if "-" in text or "_" in text:
        padded = padded.replace("-", "+").replace("_", "/")
    return base64.b64decode(padded, validate=True)


def verify(envelope_path: str, public_path: str) -> dict:
    with open(public_path, "rb") as handle:
        public_key = serialization.load_pem_public_key(handle.read())
    with open(envelope_path, "rb") as handle:
        envelope = json.loads(handle.read().decode("utf-8"))
    body = b64decode(envelope["payload"])
    message = pae(envelope["payloadType"].encode("utf-8"), body)
    verified = False
    for signature in envelope["signatures"]:
        try:
            public_key.verify(b64decode(signature["sig"]), message)
            verified = True
        except InvalidSignature:
            pass
    return {
        "verified": verified,
        "keyid": keyid(public_key),
        "pae_sha256": hashlib.sha256(message).hexdigest(),
        "statement": json.loads(body.decode("utf-8")) if verified else None,
    }


def sign(payload_path: str, private_path: str) -> dict:
    with open(private_path, "rb") as handle:
        private_key = serialization.load_pem_private_key(handle.read(), password=None)
    with open(payload_path, "rb") as handle:
        body = handle.read()
    signature = private_key.sign(pae(PAYLOAD_TYPE.encode("utf-8"), body))
    return {
        "payloadType": PAYLOAD_TYPE,
        "payload": base64.b64encode(body).decode("ascii"),
        "signatures": [{"keyid": keyid(private_key.public_key()),
                        "sig": base64.b64encode(signature).decode("ascii")}],
    }


if __name__ == "__main__":
    command, first, second = sys.argv[1:4]
    result = verify(first, second) if command == "verify" else sign(first, second)
    print(json.dumps(result, indent=1))
