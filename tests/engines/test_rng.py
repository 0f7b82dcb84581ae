from sunbot.engines.rng import next_u32, rand_int


def _first(seed: int, n: int) -> list[int]:
    cur, out = seed, []
    for _ in range(n):
        cur, v = next_u32(cur)
        out.append(v)
    return out


def test_mulberry32_vectors_from_spec():
    # Sunloaf §9, "Day generation"
    assert _first(7, 4) == [50271532, 266108690, 4195786334, 3002305430]
    assert _first(0, 4) == [1144304738, 1416247, 958946056, 627933444]


def test_rand_int_maps_value_into_range():
    cur, k = rand_int(7, 4)
    assert k == (50271532 * 4) >> 32 == 0
    assert cur == next_u32(7)[0]
