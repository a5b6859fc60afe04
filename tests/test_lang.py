"""The per-language data package: lazy, per concern and language, neutral where a language has none."""

import pytest

from workspace_memory import lang


def test_a_language_without_data_is_none_and_kept() -> None:
    assert lang.table("words", "xx") is None
    assert lang.table("timewords", "xx") is None
    assert lang.table("stance", "xx") is None
    assert ("words", "xx") in lang._loaded


def test_codes_that_are_not_language_codes_never_import_anything() -> None:
    for code in ("", "EN", "../x", "e n", "english", "de.x"):
        assert lang.table("words", code) is None


def test_an_unknown_concern_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown language concern"):
        lang.table("grammar", "en")
    with pytest.raises(ValueError, match="unknown language concern"):
        lang.available("grammar")


def test_available_lists_the_data_modules_of_a_concern() -> None:
    assert all(code in lang.MODEL_LANGUAGES or len(code) in (2, 3) for code in lang.available("words"))
