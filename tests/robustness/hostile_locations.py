"""Generated index locations that carry a credential, for the redaction tests.

Every scheme (supported or not) is combined with every place a credential hides in a URI: user and password,
a user alone, a query parameter a provider signs with, a fragment. The secret is a marker the tests look for.
"""

from __future__ import annotations

import itertools

SECRET = "Zq8-s3cr3t-VALUE"
SCHEMES = ("https", "http", "s3", "gs", "az", "abfss", "s3+ddb", "ftp", "webdav")
PLACES = (
    "{scheme}://user:{secret}@bucket/kb",
    "{scheme}://{secret}@bucket/kb",
    "{scheme}://bucket/kb?sig={secret}",
    "{scheme}://bucket/kb?X-Amz-Signature={secret}&X-Amz-Credential=AKIA",
    "{scheme}://bucket/kb?a=1&token={secret}",
    "{scheme}://bucket/kb#access_token={secret}",
    "{scheme}://user:{secret}@bucket/kb?sv=2020&sig={secret}",
)


def hostile_locations() -> list[str]:
    return [place.format(scheme=scheme, secret=SECRET) for scheme, place in itertools.product(SCHEMES, PLACES)]
