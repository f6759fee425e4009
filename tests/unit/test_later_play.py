"""The insurance's gains a derive searches ``[[insurance]]`` rules with, where the solver bets or
folds after a draw."""

import numpy as np

from solver import rules
from solver.classes import enumerate_classes
from solver.hand import N_STRENGTH
from solver.play import NEVER, Play
from solver.strategy import later_play


def test_the_insurance_gains_where_the_solver_bets_after_a_draw(monkeypatch):
    """With no bet or fold of the card's (``bets`` None), a cell of the draws is bet where betting
    gains under the insurance played: the insurance gains what betting gains insured less what
    it gains uninsured, each where it gains, and nothing where betting loses either way."""
    rng = np.random.default_rng(5)
    by_play = {p: rng.normal(size=(2, 13, N_STRENGTH)) for p in (0, NEVER)}
    monkeypatch.setattr(later_play, "draw_gains", lambda *args: by_play[args[-1].insure_from])
    folded = np.zeros(len(enumerate_classes()[0]), np.int64)        # no bet at once
    gains = later_play.insurance_gains(rules.load("russian"), None, folded, None, Play(NEVER, 4))
    insured, uninsured = by_play[0], by_play[NEVER]
    both = (insured > 0) & (uninsured > 0)
    # each cell its own, after a card of the up-card's rank thrown away or not
    assert np.allclose(gains, np.where(both, insured - uninsured, 0) + np.where(~both & (insured > 0), insured, 0)
                       - np.where(~both & (uninsured > 0), uninsured, 0))
    # betting loses either way, by less insured: the insurance gains nothing, as nothing is bet
    by_play[0], by_play[NEVER] = -np.ones((2, 13, N_STRENGTH)), -2 * np.ones((2, 13, N_STRENGTH))
    assert not later_play.insurance_gains(rules.load("russian"), None, folded, None, Play(NEVER, 4)).any()
