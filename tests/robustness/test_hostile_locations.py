"""A credential in an index location is never repeated in a message (issue 25, item 13).

``https://user:secret@…`` (an unsupported scheme) and ``s3://…?sig=…`` used to be echoed in the error. Every
generated location of ``hostile_locations`` is given to ``safereq search``: refused with exit 2, without the
secret and without a traceback.
"""

from __future__ import annotations

import pytest

from safereq.cli.main import main
from safereq.knowledge.location import index_location, redact_uri

from .hostile_locations import SECRET, hostile_locations


@pytest.mark.parametrize("location", hostile_locations())
def test_a_credential_in_a_location_is_never_repeated(capsys, location):
    with pytest.raises(SystemExit) as exited:  # refused while the options are read
        main(["search", "x", "--index-dir", location, "--embedder", "none"])
    text = capsys.readouterr().err
    assert exited.value.code == 2 and SECRET not in text and "Traceback" not in text, text


def test_the_one_query_a_location_may_carry_is_dynamodbs_table_name():
    assert str(index_location("s3+ddb://b/kb?ddbTableName=locks")) == "s3+ddb://b/kb?ddbTableName=locks"
    assert redact_uri(f"see https://u:{SECRET}@h/p?sig={SECRET}#t={SECRET} now") == "see https://***@h/p?sig=***#*** now"
