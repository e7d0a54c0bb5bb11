"""What a belief row stores as its sensitivity (graphmem.store.beliefs), without a database.

Formation's beliefs are written through these rows too: a formed statement that holds a
secret is stored secret, whatever its episode's level (tests/mutants.py).
"""

from __future__ import annotations

from graphmem.models import NewBelief, Scope, Sensitivity
from graphmem.store.beliefs import PendingBelief, _belief_row

EPISODE_ID = "01a230d6-c141-7277-87f4-60f7710e9f0a"
KEY = "AKIA" + "QZ7HX2KD4PL9MW3T"
"""A fake AWS access key id in the documented shape (not a real credential)."""


def _stored_level(statement: str, declared: Sensitivity) -> object:
    belief = NewBelief.model_validate(
        {
            "statement": statement,
            "project": "ops",
            "type": "fact",
            "sensitivity": declared,
            "evidence": [{"episode_id": EPISODE_ID, "role": "observation"}],
        }
    )
    pending = PendingBelief(None, belief, "b-1", Scope.PROJECT, ["ops"])
    return _belief_row(pending)["props"]["sensitivity"]


def test_a_belief_whose_text_holds_a_secret_is_stored_secret() -> None:
    secret = f"The deploy user signs requests with access key {KEY}"
    assert _stored_level(secret, Sensitivity.INTERNAL) is Sensitivity.SECRET
    assert _stored_level(secret, Sensitivity.PUBLIC) is Sensitivity.SECRET
    plain = "The deploy user signs requests with its own role"
    assert _stored_level(plain, Sensitivity.CONFIDENTIAL) is Sensitivity.CONFIDENTIAL
