"""The meter: a decision counts what the agent reported, each report taken as at most the
whole daily cap (a lying endpoint cannot record billions, nor pass the cap); requests are
counted before they are sent and refused at the cap."""

from __future__ import annotations

import math

import pytest

from sunbot.spend.caps import SpendCaps
from sunbot.spend.meter import Meter, SpendCapReached, requests_meter


def _meter(tmp_path, **caps) -> Meter:
    return Meter(SpendCaps(tmp_path / "spend.sqlite", **caps), today=lambda: "2026-12-06")


def test_decisions_count_until_the_cap_then_refuse(tmp_path):
    m = _meter(tmp_path, tokens=1_000)
    for _ in range(2):
        m.check_model()
        m.charge_model({"promptTokens": 400, "completionTokens": 50})
    m.check_model()  # 900 < 1,000: one more may start
    m.charge_model({"promptTokens": 400, "completionTokens": 50})  # 1,350: past, by one
    with pytest.raises(SpendCapReached) as caught:
        m.check_model()
    assert str(caught.value).startswith(
        "daily model-token cap reached: 1,350 of 1,000 tokens on 2026-12-06 (UTC) in "
    )
    assert m.stopped == str(caught.value) and m.counted["tokens"] == 1_350


def test_a_lying_report_counts_as_the_whole_cap_and_says_so(tmp_path):
    # the endpoint: ~460 prompt tokens reported as 1,000,002,262 + 2,000,000,016
    m = _meter(tmp_path, tokens=20_000)
    m.charge_model({"promptTokens": 1_000_002_262, "completionTokens": 2_000_000_016})
    assert m.ledger.used("model-tokens") == 20_000
    with pytest.raises(SpendCapReached, match="one decision reported 3,000,002,278 tokens"):
        m.check_model()


@pytest.mark.parametrize(
    ("prompt", "completion", "counted"),
    [(-500, 30, 30), ("lots", None, 0), (True, 7, 7), (math.inf, 1, 5_000), (10, math.nan, 5_000)],
)
def test_reports_below_zero_count_nothing_and_infinite_ones_the_cap(
    tmp_path, prompt, completion, counted
):
    m = _meter(tmp_path, tokens=5_000)
    m.charge_model({"promptTokens": prompt, "completionTokens": completion})
    assert m.ledger.used("model-tokens") == counted


def test_money_is_counted_from_the_tokens_at_the_price(tmp_path):
    m = _meter(tmp_path, usd=0.01, price=(2.0, 8.0))  # USD per million tokens
    m.charge_model({"promptTokens": 1_000, "completionTokens": 500})  # 0.002 + 0.004
    assert m.ledger.used("model-usd") == pytest.approx(0.006)
    m.check_model()
    m.charge_model({"promptTokens": 1_000, "completionTokens": 500})
    with pytest.raises(SpendCapReached, match=r"daily model-spend cap reached: \$0.0120 of"):
        m.check_model()
    m2 = _meter(tmp_path / "b", usd=0.5, price=(2.0, 8.0))
    m2.charge_model({"promptTokens": 10**12, "completionTokens": 0})  # $2,000,000 claimed
    assert m2.ledger.used("model-usd") == 0.5


def test_requests_are_refused_at_the_cap_per_server(tmp_path):
    m = _meter(tmp_path, requests=3)
    for _ in range(3):
        m.take_request("http://a:80")
    with pytest.raises(SpendCapReached, match="daily request cap reached for http://a:80: 3"):
        m.take_request("http://a:80")
    m.take_request("http://b:80")  # another server: its own count
    assert m.ledger.used(requests_meter("http://a:80")) == 3


def test_caps_are_checked(tmp_path):
    with pytest.raises(ValueError, match="daily tokens cap must be a positive number"):
        SpendCaps(tmp_path, tokens=0)
    with pytest.raises(ValueError, match="needs the model's price"):
        SpendCaps(tmp_path, usd=1.0)
