"""The exchange of a derived card's lines (``refinement.refine``) against trying every line by hand."""


import numpy as np
import pytest

from solver.strategy import derive
from solver.strategy.derive import cells, refinement, searching, shaking, tree, work
from solver.strategy.vocabulary import Line, atoms, condition_masks, narrowing


def _loss(lines, loss, masks):
    """The loss of a decision list, the first line that holds deciding each cell."""
    left, out = np.ones(len(loss), bool), 0.0
    for path, action in lines:
        held = left.copy()
        for i in path:
            held &= masks[i] > 0
        out += loss[held, action].sum()
        left &= ~held
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_best_line_inserted_is_the_best_of_all(seed, monkeypatch):
    """One round inserts the line, of every condition, pair of conditions of other keys, action
    and place above the last, that lowers the loss most; more rounds never raise it, and the
    list stays within its lines and keeps its last line without conditions."""
    rng = np.random.default_rng(seed)
    loss = rng.random((300, 3))
    masks = (rng.random((12, 300)) < 0.4).astype(np.float64)
    vocabulary = [(f"key{i % 6}", i) for i in range(12)]
    start = [((0,), 1), ((3, 4), 2), ((), 0)]
    candidates = [(i,) for i in range(12)] + [(i, j) for i in range(12) for j in range(12) if i % 6 != j % 6]
    best = min(_loss(start[:p] + [(path, a)] + start[p:], loss, masks)
               for p in range(len(start)) for path in candidates for a in range(3))
    monkeypatch.setattr(refinement, "PAIRED", 12)
    monkeypatch.setattr(refinement, "REFINE", 0)         # the insertion into the room left, no round after
    assert _loss(refinement.refine(loss, masks, vocabulary, start, 4), loss, masks) == pytest.approx(best, abs=1e-9)
    monkeypatch.setattr(refinement, "REFINE", 30)
    more = refinement.refine(loss, masks, vocabulary, start, 4)
    assert _loss(more, loss, masks) <= best + 1e-9 and len(more) <= 4 and more[-1][0] == ()


def test_the_bet_after_a_draw_follows_the_gains():
    """The bet or fold after a draw searched from the gains of each cell (a card of the up-card's
    rank thrown or not, up rank, final strength): where betting gains with a pair or better and
    with A K when the up-card matches or a card of its rank was thrown away, and loses elsewhere,
    four lines decide every cell the draws reach as its gain says."""
    from solver.category import AK, PAIR
    from solver.hand import STRENGTH_CATEGORY
    from solver.rules import load
    from solver.strategy import parse
    from solver.strategy.after_draw import ACTIONS, bet_table, final_hands

    rng = np.random.default_rng(4)
    hands = final_hands()
    gains = np.zeros((2, 13, len(hands)))
    for thrown in (0, 1):
        for up in range(13):
            reached = rng.random(len(hands)) < 0.3
            matches = (hands >> 2 == up).any(axis=1) | bool(thrown)
            good = (STRENGTH_CATEGORY >= PAIR) | ((STRENGTH_CATEGORY == AK) & matches)
            gains[thrown, up, reached] = np.where(good, 1, -1)[reached] * rng.random(int(reached.sum()))
    lines, loss = derive.final_rules(gains, ACTIONS, range(4, 5))[4]
    assert len(lines) == 4 and lines[-1].when == () and loss == 0
    assert any(("thrown_matches_up", True) in line.when for line in lines)
    table = bet_table(parse(derive.card_text((Line((), "optimal"),), load("russian"), "t", lines), "t.toml"))
    assert ((table == 1) == (gains > 0))[gains != 0].all()


def test_the_insurance_follows_its_gains():
    """Insurance rules searched from what insuring the most gains over never in each cell (a
    card of the up-card's rank thrown away or not, up rank, final strength): where it gains with
    a full house or three of a kind whose rank the up-card has, or with three of a kind after a
    card of the up-card's rank was thrown away, and loses elsewhere, four lines decide every cell
    as its gain says, and the card's insurance table is theirs."""
    from solver.category import FULL_HOUSE, THREE_OF_A_KIND
    from solver.hand import STRENGTH_CATEGORY
    from solver.play import NEVER, Play
    from solver.rules import load
    from solver.strategy import parse
    from solver.strategy.after_draw import final_hands
    from solver.strategy.card import INSURE

    rng = np.random.default_rng(5)
    hands = final_hands()
    ranks = np.sort(hands >> 2, axis=1)
    gains = np.zeros((2, 13, len(hands)))
    insurable = STRENGTH_CATEGORY >= THREE_OF_A_KIND
    for thrown in (0, 1):
        for up in range(13):
            # the middle card of a sorted hand of trips or a full house is of the three
            good = np.isin(STRENGTH_CATEGORY, (THREE_OF_A_KIND, FULL_HOUSE)) & (ranks[:, 2] == up)
            good |= bool(thrown) & (STRENGTH_CATEGORY == THREE_OF_A_KIND)
            size = 0.1 + rng.random(int(insurable.sum()))
            gains[thrown, up, insurable] = np.where(good, 1, -1)[insurable] * size
    lines, loss = derive.final_rules(gains, INSURE, range(4, 5))[4]
    assert loss == 0 and lines[-1] == Line((), "none") and len(lines) <= 4
    assert any(("thrown_matches_up", True) in line.when for line in lines)
    card = parse(derive.card_text((Line((), "optimal"),), load("russian"), "t", (), Play(NEVER, NEVER), lines),
                 "t.toml")
    table = np.frombuffer(card.play.insure_when, np.uint8).reshape(2, 13, len(hands))
    assert ((table == 1) == (gains > 0))[:, :, insurable].all()


def test_two_conditions_of_the_card_s_lines_are_tried_together(monkeypatch):
    """Where each of two conditions alone loses as a line but both together gain (a card of the
    up-card's rank thrown, and the up-card matching), and the card already uses each on a line
    of its own, a round tries them together, however the conditions rank alone."""
    rng = np.random.default_rng(7)
    masks = (rng.random((12, 400)) < 0.5).astype(np.float64)
    both = (masks[10] > 0) & (masks[11] > 0)
    loss = np.zeros((400, 2))
    loss[both, 0] = 1.0                 # action 1 is best where both hold
    loss[~both, 1] = 3.0                # and costly anywhere else
    vocabulary = [(f"key{i}", i) for i in range(12)]
    start = [((10, 2), 0), ((11, 3), 0), ((), 0)]
    monkeypatch.setattr(refinement, "PAIRED", 1)
    monkeypatch.setattr(refinement, "REFINE", 0)
    refined = refinement.refine(loss, masks, vocabulary, start, 4)
    assert any(set(path) == {10, 11} and action == 1 for path, action in refined)
    assert _loss(refined, loss, masks) < _loss(start, loss, masks)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_line_retouched_is_the_best_change_of_one_condition(seed):
    """``refinement.retouch`` adds one condition to, drops one from, or replaces one of, one line but the
    last: the list it returns loses no more than the best such change tried by hand (each line's
    action kept; it then chooses that line's action anew), and changes one line by one condition."""
    rng = np.random.default_rng(seed)
    loss = rng.random((400, 3))
    masks = (rng.random((12, 400)) < 0.5).astype(np.float64)
    vocabulary = [(f"key{i % 6}", i) for i in range(12)]
    start = [((0,), 1), ((3, 4), 2), ((5,), 0), ((), 0)]
    changed = []
    for k, (path, action) in enumerate(start[:-1]):
        paths = [(*path, i) for i in range(12) if all(vocabulary[i][0] != vocabulary[j][0] for j in path)]
        paths += [tuple(j for j in path if j != i) for i in path]
        paths += [(*(j for j in path if j != i), n) for i in path for n in range(12)
                  if n != i and all(vocabulary[n][0] != vocabulary[j][0] for j in path if j != i)]
        changed += [start[:k] + [(p, action)] + start[k + 1:] for p in paths]
    best = min(_loss(lines, loss, masks) for lines in changed)
    retouched = refinement.retouch(loss, masks, masks > 0, narrowing(vocabulary), start)
    assert best < _loss(start, loss, masks)
    assert _loss(retouched, loss, masks) <= best + 1e-9
    (k,) = [k for k in range(len(start)) if retouched[k][0] != start[k][0]]
    a, b = set(retouched[k][0]), set(start[k][0])
    assert len(a ^ b) == 1 or len(a - b) == len(b - a) == 1
    assert retouched[-1] == start[-1]


def test_a_search_s_cards_are_kept_and_read_back(tmp_path, monkeypatch):
    """A search with a work folder keeps each size's card; the same search reads it back without
    searching, a damaged one is searched again, and other losses are not taken for it; searched
    by two workers, the cards are the same."""
    from solver.classes import enumerate_classes
    from solver.rules import load
    from solver.strategy.hands import Seen

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(5).choice(len(hands), 400, replace=False)
    cells = Seen.of(hands[rows], ups[rows])
    names = derive.actions(load("russian"))
    loss = np.random.default_rng(6).random((400, len(names)))
    monkeypatch.setattr(shaking, "PERTURB", 1)          # its workers too: search passes it on
    found = derive.search(cells, loss, names, (3, 5), True, folder=tmp_path)
    kept = sorted(tmp_path.glob("search-*.npy"))
    assert len(kept) == 2 and len(list(tmp_path.glob("chained-*.npy"))) == 2
    assert len(list(tmp_path.glob("perturbed-*.npy"))) == 2
    settled = sorted(tmp_path.glob("settled-*.npy"))
    assert len(settled) == 2
    # chained again after the shake: what is kept of each size is the card returned, and no size
    # loses more than its shaken card
    for size in (3, 5):
        (shaken,) = tmp_path.glob(f"perturbed-{size}-*.npy")
        (kept_settled,) = tmp_path.glob(f"settled-{size}-*.npy")
        assert work.kept_card(kept_settled) == found[size]
        assert found[size][1] <= work.kept_card(shaken)[1]

    def no_search(*args, **kwargs):
        raise AssertionError("searched again")

    def unlink(stage):
        for card in tmp_path.glob(f"{stage}-*.npy"):
            card.unlink()

    with monkeypatch.context() as m:
        m.setattr(tree, "grow", no_search)
        m.setattr(refinement, "refine", no_search)
        assert derive.search(cells, loss, names, (3, 5), True, folder=tmp_path) == found
        with pytest.raises(AssertionError, match="searched again"):
            derive.search(cells, loss[::-1].copy(), names, (3,), True, folder=tmp_path)
    unlink("settled")            # chained again from the shaken cards kept, not shaken again
    with monkeypatch.context() as m:
        m.setattr(tree, "grow", no_search)
        m.setattr(searching, "perturbed_size", no_search)
        assert derive.search(cells, loss, names, (3, 5), True, folder=tmp_path) == found
    assert sorted(tmp_path.glob("settled-*.npy")) == settled
    unlink("settled")
    unlink("perturbed")          # shaken again from the chained cards kept
    with monkeypatch.context() as m:
        m.setattr(tree, "grow", no_search)
        assert derive.search(cells, loss, names, (3, 5), True, folder=tmp_path) == found
    unlink("chained")            # the sizes chained again from the searches kept
    unlink("perturbed")
    unlink("settled")
    with monkeypatch.context() as m:
        m.setattr(tree, "grow", no_search)
        assert derive.search(cells, loss, names, (3, 5), True, folder=tmp_path) == found
    searched = work.kept_card(kept[0])
    kept[0].write_bytes(kept[0].read_bytes()[:-1] + b"x")
    unlink("chained")
    unlink("perturbed")
    unlink("settled")
    assert derive.search(cells, loss, names, (3, 5), True, folder=tmp_path) == found
    assert work.kept_card(kept[0]) == searched is not None
    assert derive.search(cells, loss, names, (3, 5), True) == found
    assert derive.search(cells, loss, names, (3, 5), True, jobs=2) == found     # a size a worker


def test_a_first_decision_without_draws_is_not_shaken(tmp_path, monkeypatch):
    """Without draws (the Caribbean Stud's card, the rules on the final hand) the search stops at
    the chained cards: no round of ``shaking.perturbed``, no shaken card kept."""
    from solver.classes import enumerate_classes
    from solver.strategy.hands import Seen

    def shaken(*args, **kwargs):
        raise AssertionError("shaken")

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(7).choice(len(hands), 300, replace=False)
    loss = np.random.default_rng(8).random((300, 2))
    monkeypatch.setattr(shaking, "perturbed", shaken)
    found = derive.search(Seen.of(hands[rows], ups[rows]), loss, ("bet", "fold"), (3, 5), folder=tmp_path)
    assert sorted(found) == [3, 5] and len(list(tmp_path.glob("chained-*.npy"))) == 2
    assert not list(tmp_path.glob("perturbed-*.npy")) and not list(tmp_path.glob("settled-*.npy"))


def test_plain_words_play_every_deal_as_the_search_s_lines():
    """``plain`` rewrites a keep of ranks the line's hands never hold as "keep nothing" and
    leaves out the lines the lines below play alike: every deal keeps the same cards, and no keep
    it leaves names ranks none of its line's hands holds."""
    from solver.classes import enumerate_classes
    from solver.rules import preset
    from solver.strategy.card import parse
    from solver.strategy.hands import Seen

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(5).choice(len(hands), 40_000, replace=False)
    seen = Seen.of(hands[rows], ups[rows])
    rules = preset("oasis")
    # the third line's hands hold no K, the last's no A: both throw all five
    lines = (Line((("category", "pair+"),), "bet"), Line((("holds", "A"),), "keep A"),
             Line((("holds", "J"), ("group", "J-Q")), "keep K"), Line((), "keep A"))
    out = derive.plain(lines, rules, seen)

    def resolved(card_lines):
        line = parse(derive.card_text(card_lines, rules, "t"), "t").decide(seen)
        got = np.empty(len(seen), np.int64)
        for k, rule in enumerate(card_lines):
            got[line == k] = cells.action_codes(seen.take(np.flatnonzero(line == k)), rules, rule.action)[0]
        return got, line

    before, _ = resolved(lines)
    after, line = resolved(out)
    assert (before == after).all()
    assert [rule.action for rule in out] == ["bet", "keep A", "keep nothing"]
    for k, rule in enumerate(out):
        if rule.action.startswith("keep ") and rule.action != "keep nothing":
            assert (after[line == k] != derive.ALL_FIVE).any()


def test_a_card_of_more_lines_never_loses_more():
    """``shaking.chained``: a size's card is at least as good as the next larger card with its cheapest
    lines left out, as a smaller card, and as its own search's; each estimate is the card's loss,
    line by line."""
    from solver.classes import enumerate_classes
    from solver.strategy.hands import Seen

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(7).choice(len(hands), 3_000, replace=False)
    seen = Seen.of(hands[rows], ups[rows])
    rng = np.random.default_rng(8)
    names = ("bet", "fold", "sixth_card")
    loss = rng.random((len(rows), 3)) * (1 + seen.category[:, None] * np.asarray([0.0, 1.0, 0.5]))
    vocabulary = atoms(True)
    masks = condition_masks(seen, vocabulary)

    def lost(card):
        listed = [(tuple(vocabulary.index(c) for c in line.when), names.index(line.action)) for line in card]
        return _loss(listed, loss, masks)

    big = tree.search_size(seen, loss, names, 4, True, 2, masks)[1]
    worst = int(np.argmax(loss.sum(axis=0)))
    cards = {2: ((Line((), names[worst]),), float(loss[:, worst].sum())), 4: big,
             6: ((Line((), names[worst]),), float(loss[:, worst].sum()))}
    out = shaking.chained(cards, loss, names, vocabulary, masks)
    fewer = big[0]
    while len(fewer) > 2:      # the larger card's cheapest lines to lose, one by one, by hand
        fewer = min((fewer[:k] + fewer[k + 1:] for k in range(len(fewer) - 1)), key=lost)
    assert out[2][1] <= min(lost(fewer), cards[2][1]) * (1 + 1e-12)
    assert out[4][1] <= big[1] * (1 + 1e-12) and out[6][1] <= big[1] * (1 + 1e-12)
    for size, (card, estimate) in out.items():
        assert len(card) <= size and card[-1].when == () and estimate == pytest.approx(lost(card), rel=1e-12)
    assert out[2][1] >= out[4][1] >= out[6][1]


def test_the_search_s_sums_are_exact_in_any_order():
    """``searching.on_grid``: the losses the search sums are moved by at most half a step of a power of
    two, and their sums over any cells come out the same in any order (so a machine's BLAS,
    summing in its own order, finds the same card); the search over the cells in another order
    finds the same card."""
    import math

    from solver.classes import enumerate_classes
    from solver.strategy.hands import Seen

    rng = np.random.default_rng(11)
    loss = rng.random((5_000, 3)) * 10.0 ** rng.integers(-6, 3, (5_000, 3))
    loss[rng.random(5_000) < 0.1, 2] = derive.IMPOSSIBLE
    grid = searching.on_grid(loss)
    possible = np.where(loss < derive.IMPOSSIBLE, loss, 0)
    assert 0 < np.abs(grid - loss).max() <= 2.0 ** -50 * 4 * possible.sum(axis=0).max()
    some = rng.random(5_000) < 0.5
    for a in range(3):
        column = grid[some & (loss[:, a] < derive.IMPOSSIBLE), a]
        assert column.sum() == column[::-1].sum() == math.fsum(column) == column[rng.permutation(len(column))].sum()
        both = some & (loss[:, a] < derive.IMPOSSIBLE) & (loss[:, (a + 1) % 3] < derive.IMPOSSIBLE)
        gain = grid[:, a] - grid[:, (a + 1) % 3]
        assert both.astype(np.float64) @ gain == math.fsum(gain[both])
    # (unrounded, the order shows)
    assert not all(math.fsum(loss[some, a]) == loss[some, a][::-1].sum() == loss[some, a].sum() for a in range(3))

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(12).choice(len(hands), 1_000, replace=False)
    seen = Seen.of(hands[rows], ups[rows])
    names = ("bet", "fold", "sixth_card")
    few = rng.random((1_000, 3)) * (1 + seen.category[:, None] * np.asarray([0.0, 1.0, 0.5]))
    order = rng.permutation(1_000)
    assert derive.search(seen, few, names, (4,), True) == derive.search(seen.take(order), few[order], names, (4,), True)


def test_a_perturbed_card_is_refined_from_itself_less_a_few_lines(monkeypatch):
    """``shaking.perturbed``: each round refines the card kept so far less two to four of its lines (never
    the last), keeps the refined card only where it loses less, and the rounds draw alike on
    every run."""
    from solver.classes import enumerate_classes
    from solver.strategy.hands import Seen

    hands, ups, _ = enumerate_classes()
    rows = np.random.default_rng(12).choice(len(hands), 1_500, replace=False)
    seen = Seen.of(hands[rows], ups[rows])
    loss = np.random.default_rng(13).random((len(rows), 3)) * (1 + seen.category[:, None] * np.asarray([0.0, 1.0, 0.5]))
    vocabulary = atoms(True)
    masks = condition_masks(seen, vocabulary)
    start = refinement.refine(loss, masks, vocabulary, [((), 0)], 8)
    refine = refinement.refine
    calls = []

    def recorded(loss, masks, vocabulary, listed, most, by_cell=None):
        out = refine(loss, masks, vocabulary, listed, most, by_cell)
        calls.append((listed, out))
        return out

    with monkeypatch.context() as m:
        m.setattr(refinement, "refine", recorded)
        out = shaking.perturbed(loss, masks, vocabulary, start, 8, 5)
    assert len(calls) == 5
    current = start
    for given, refined in calls:
        assert given[-1] == current[-1] and 2 <= len(current) - len(given) <= 4
        rest = iter(current)
        assert all(line in rest for line in given)          # the lines left, in their order
        assert len(refined) <= 8
        if _loss(refined, loss, masks) < _loss(current, loss, masks) * (1 - 1e-12):
            current = refined
    assert out == current and _loss(out, loss, masks) <= _loss(start, loss, masks)
    assert shaking.perturbed(loss, masks, vocabulary, start, 8, 5) == out
