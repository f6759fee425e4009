import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def hand_counts() -> dict:
    return json.loads((DATA / "hand_counts.json").read_text())
