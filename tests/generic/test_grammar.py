"""The served grammar: where it is found, which patterns run, what an error says."""

from __future__ import annotations

import pytest

from sunbot.generic.grammar import (
    MAX_MATCHED,
    MAX_PATTERN,
    GrammarProblem,
    compile_grammar,
    find_grammar,
    risky_pattern,
)

MARK = {"type": "object", "properties": {"type": {"const": "mark"}, "cell": {"type": "integer", "maximum": 8}},
        "required": ["type", "cell"]}  # fmt: skip


def test_lookup_order_and_what_is_passed_over():
    assert find_grammar({"actions": MARK, "actionSchema": True}) == ("actionSchema", True)
    assert find_grammar({"actions": ["a list of words"], "grammar": MARK}) == ("grammar", MARK)
    assert find_grammar({"actionGrammar": "text", "actions": MARK}) == ("actions", MARK)
    assert find_grammar({"rules": []}) == (None, None)
    assert find_grammar("not a spec") == (None, None)


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        ("^[a-z]+$", None),
        ("^(PLACE|REST)$", None),
        ("(a|b)+", None),
        ("^\\d{1,3}(,\\d{3})*$", "repeats inside"),
        ("(a+)+$", "repeats inside"),
        ("((ab)*c)+", "repeats inside"),
        ("(\\w*,){2,}", "repeats inside"),
        ("(a+)?", None),
        ("[(]+)*x", None),  # the brackets are a character class, not a group
        ("(a)\\1", "backreference"),
        ("(?P<n>a)(?P=n)", "backreference"),
        ("a" * (MAX_PATTERN + 1), "longer than"),
        ("a{,}", None),  # a literal brace
    ],
)
def test_risky_patterns(pattern, why):
    got = risky_pattern(pattern)
    assert (got is None) if why is None else (got is not None and why in got)


def test_errors_name_the_field_and_the_rule():
    g = compile_grammar({"actionSchema": MARK})
    assert g.key == "actionSchema" and g.errors({"type": "mark", "cell": 3}) == []
    assert g.errors({"type": "mark", "cell": 9}) == ["['cell']: 9 is greater than the maximum of 8"]
    assert g.errors({"type": "mark"}) == ["'cell' is a required property"]


def test_the_schema_names_its_draft():
    draft7 = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "array",
              "items": [{"type": "string"}], "additionalItems": False}  # fmt: skip
    g = compile_grammar({"actions": draft7})
    assert g.errors(["a"]) == [] and g.errors(["a", "b"]) != []
    odd = compile_grammar({"actions": {"$schema": "https://example.invalid/mine", **MARK}})
    assert odd.errors({"type": "mark", "cell": 9}) != []  # unknown draft: 2020-12


def test_patterns_run_on_bounded_strings_only():
    g = compile_grammar(
        {"actions": {"type": "object", "properties": {"text": {"pattern": "^[a-z]*$"}}}}
    )
    assert g.errors({"text": "abc"}) == [] and g.errors({"text": "ABC"}) != []
    with pytest.raises(GrammarProblem, match=f"longer than {MAX_MATCHED}"):
        g.errors({"text": "a" * (MAX_MATCHED + 1)})


def test_a_skipped_pattern_property_applies_to_no_key():
    schema = {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}}
    g = compile_grammar({"actions": schema})
    assert list(g.skipped) == ["^(a+)+$"] and g.errors({"aaa": "not an integer"}) == []
    ok = compile_grammar(
        {"actions": {"type": "object", "patternProperties": {"^a+$": {"type": "integer"}}}}
    )
    assert ok.errors({"aaa": "x"}) != [] and ok.errors({"b": "x"}) == []


def test_self_reference_and_a_huge_action_are_problems_not_crashes():
    g = compile_grammar({"actions": {"$ref": "#"}})
    with pytest.raises(GrammarProblem, match="recurses too deeply"):
        g.errors({"type": "a"})
    with pytest.raises(GrammarProblem, match="larger than"):
        compile_grammar({"actions": MARK}).errors({"type": "x" * 70_000})
