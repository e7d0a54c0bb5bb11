"""What an idempotency key stands for: the canonical payload digest, and assigning ids."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta, timezone

import pytest

from graphmem import IdempotencyConflict
from graphmem.models import BeliefChanges, NewBelief, NewEpisode
from graphmem.store.writes import Earlier, assign_ids, payload_digest


def _belief(**fields: object) -> NewBelief:
    return NewBelief.model_validate({"statement": "X", "project": "p", "type": "fact", **fields})


def test_the_digest_is_of_the_validated_payload_not_its_spelling() -> None:
    episode = "0190c6f2-8e4b-7a3d-9c1e-5f2a6b7c8d9e"
    plain = _belief(evidence=[episode])
    spelled_out = _belief(
        evidence=[{"episode_id": episode, "role": "explicit"}], confidence=0.5, state="active"
    )
    assert payload_digest("belief", plain) == payload_digest("belief", spelled_out)
    noon = datetime(2026, 12, 1, 12, tzinfo=UTC)
    in_paris = noon.astimezone(timezone(timedelta(hours=1)))
    assert payload_digest("belief", _belief(valid_from=noon)) == payload_digest(
        "belief", _belief(valid_from=in_paris)
    )


def test_the_key_itself_is_not_part_of_the_payload() -> None:
    assert payload_digest("belief", _belief(idempotency_key="a")) == payload_digest(
        "belief", _belief(idempotency_key="b")
    )


@pytest.mark.parametrize(
    "other",
    [{"statement": "Y"}, {"confidence": 0.9}, {"subject": "s"}, {"sensitivity": "secret"}],
)
def test_any_other_field_value_is_another_payload(other: dict[str, object]) -> None:
    assert payload_digest("belief", _belief()) != payload_digest("belief", _belief(**other))


def test_the_kind_of_write_and_its_context_are_part_of_the_payload() -> None:
    changes = BeliefChanges(statement="X")
    base = payload_digest("supersede", changes, old_id="a", reason="r")
    assert base != payload_digest("supersede", changes, old_id="b", reason="r")
    assert base != payload_digest("supersede", changes, old_id="a", reason="other")
    assert payload_digest("belief", changes) != payload_digest("supersede", changes)


def test_the_canonical_form_is_stable() -> None:
    """A changed canonical form would turn every stored key's retry into a conflict."""
    episode = NewEpisode(project="p", title="Fix rounding", observations=["é"])
    canonical = '["episode",{},{"observations":["é"],"project":"p","title":"Fix rounding"}]'
    expected = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert payload_digest("episode", episode) == expected


def test_a_key_seen_with_its_payload_reuses_the_id() -> None:
    existing = {"k": Earlier("id-1", "d1"), "old": Earlier("id-2", None)}
    assigned = assign_ids(
        ["k", None, "old", "new", "new"],
        ["d1", None, "anything", "d3", "d3"],
        existing,
        row_numbers=True,
    )
    assert assigned[:3] == [("id-1", False), (assigned[1][0], True), ("id-2", False)]
    assert assigned[3][1] and assigned[4] == (assigned[3][0], False)
    assert len({node_id for node_id, _ in assigned}) == 4


def test_a_key_stored_with_another_payload_conflicts() -> None:
    with pytest.raises(IdempotencyConflict) as caught:
        assign_ids(["k"], ["d2"], {"k": Earlier("id-1", "d1")}, row_numbers=False)
    error = caught.value
    assert (error.field, error.rule, error.row) == ("idempotency_key", "same_payload", None)
    assert error.details == {
        "field": "idempotency_key",
        "rule": "same_payload",
        "key": "k",
        "existing_id": "id-1",
    }
    assert error.message.startswith("idempotency_key: 'k' already names another write (id-1)")


def test_two_rows_with_one_key_and_two_payloads_conflict() -> None:
    with pytest.raises(IdempotencyConflict) as caught:
        assign_ids(["a", "k", "k"], ["d0", "d1", "d2"], {}, row_numbers=True)
    assert caught.value.details == {
        "field": "idempotency_key",
        "rule": "same_payload",
        "row": 2,
        "key": "k",
        "first_row": 1,
    }
    assert caught.value.message.startswith("row 2: idempotency_key: 'k'")
