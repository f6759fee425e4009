# cython: language_level=3
"""The rules as the counting kernel applies them (declared in ``solver/_kernel/_settle.pxd``).

``KernelRules`` is the one typed boundary between ``Rules`` and the kernel: built once per
``Rules`` (``kernel_rules.kernel_rules``, cached), it holds the ``Settings`` the kernel reads and the
payouts by strength, and shows them to Python by name.
"""
import numpy as np
import hashlib
from libc.stdint cimport int64_t, uint64_t
from solver._kernel._eval cimport N_STRENGTH
from solver._kernel._settle cimport Settings, win_pay

_FIELDS = ("qualifier", "win_extra", "buy_on", "buy_fee", "redraws", "buy_from", "insurance_from", "insurance_max",
           "insurance_min", "tie_loses", "max_payout", "insure_policy", "buy_policy")


cdef class KernelRules:
    """The rules as the kernel applies them: dealer and player strengths where a rule starts,
    fees and limits in antes, the payout P of a five-card hand by strength, the paytable for
    six cards. ``kernel_rules.kernel_rules(rules)`` builds it; every field is read-only."""

    def __init__(self, *, int qualifier, int win_extra, bint buy_on, int buy_fee, int redraws, int buy_from,
                 int insurance_from, int insurance_max, int insurance_min, bint tie_loses, int64_t max_payout,
                 p5, paytable, bint second_combination, bint new_rank, tuple forced_counts,
                 int insure_policy=-1, int buy_policy=-1, insure_table=None):
        self.st.qualifier = qualifier
        self.st.win_extra = win_extra
        self.st.buy_on = buy_on
        self.st.buy_fee = buy_fee
        self.st.redraws = redraws
        self.st.buy_from = buy_from
        self.st.insurance_from = insurance_from
        self.st.insurance_max = insurance_max
        self.st.insurance_min = insurance_min
        self.st.tie_loses = tie_loses
        self.st.max_payout = max_payout
        self.st.insure_policy = insure_policy
        self.st.buy_policy = buy_policy
        self.st.insure_table = NULL
        self.st.insure_key = 0
        self._insure_table = None
        if insure_table is not None:
            if insure_policy < 0 or len(insure_table) != N_STRENGTH:
                raise ValueError(f"insure_table: one entry per final strength ({N_STRENGTH}), with an insure_policy")
            self._insure_table = bytes(insure_table)
            self.st.insure_table = <const unsigned char*> <char*> self._insure_table
            self.st.insure_key = int.from_bytes(hashlib.sha256(self._insure_table).digest()[:8], "little")
        self._p5 = np.array(p5, np.int32)
        self._paytable = np.array(paytable, np.int32)
        if self._p5.shape != (N_STRENGTH,):
            raise ValueError(f"p5 has {len(self._p5)} payouts, not one per strength ({N_STRENGTH})")
        self._p5.setflags(write=False)
        self._paytable.setflags(write=False)
        self.p5 = self._p5
        self.paytable = self._paytable
        self.second_combination = second_combination
        self.new_rank = new_rank
        self.forced_counts = tuple(forced_counts)

    @property
    def qualifier(self) -> int:
        """The lowest dealer strength that qualifies."""
        return self.st.qualifier

    @property
    def win_extra(self) -> int:
        """1 when the ante is paid on a win, else 0."""
        return self.st.win_extra

    @property
    def buy_on(self) -> bool:
        return bool(self.st.buy_on)

    @property
    def buy_fee(self) -> int:
        return self.st.buy_fee

    @property
    def redraws(self) -> int:
        return self.st.redraws

    @property
    def buy_from(self) -> int:
        """The lowest player strength that may buy a game (AK)."""
        return self.st.buy_from

    @property
    def insurance_from(self) -> int:
        """The lowest player strength that may insure (past the top when insurance is off)."""
        return self.st.insurance_from

    @property
    def insurance_max(self) -> int:
        """The most insurance per unit of P: 2 (2P) or 1 (half of 2P)."""
        return self.st.insurance_max

    @property
    def insurance_min(self) -> int:
        return self.st.insurance_min

    @property
    def tie_loses(self) -> bool:
        return bool(self.st.tie_loses)

    @property
    def max_payout(self) -> int:
        """The most a box is paid in one round, antes (2**40: no maximum)."""
        return self.st.max_payout

    @property
    def payouts(self) -> np.ndarray:
        """P of a five-card hand by strength (read-only)."""
        return self._p5

    @property
    def insure_policy(self) -> int:
        """-1: the best insurance; k: the most from a payout multiple P >= k on, none below."""
        return self.st.insure_policy

    @property
    def buy_policy(self) -> int:
        """-1: a game bought where it beats the ante; k: for every dealer hand that does not
        qualify from P >= k on, never below."""
        return self.st.buy_policy

    @property
    def insure_table(self) -> bytes | None:
        """With ``insure_policy``: the final strengths that insure (1) or not (0)."""
        return self._insure_table

    def win_pay(self, int p) -> int:
        """What a won showdown pays the bet of a hand of payout multiple p: 2P (+ the ante), at
        most the table's maximum."""
        return win_pay(&self.st, p)

    def settings(self) -> dict[str, int]:
        """The settings by name."""
        return {name: int(getattr(self, name)) for name in _FIELDS}

    def __reduce__(self):
        return _rebuild, (self.settings(), self._insure_table, self._p5, self._paytable, self.second_combination,
                          self.new_rank, self.forced_counts)


def _rebuild(settings, insure_table, p5, paytable, second_combination, new_rank, forced_counts):
    return KernelRules(**settings, insure_table=insure_table, p5=p5, paytable=paytable,
                       second_combination=second_combination, new_rank=new_rank, forced_counts=forced_counts)
