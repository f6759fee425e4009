"""The report's PNG charts: the strategy by hand group and up-card, the results."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..action import GROUPS
from ..hand import STRENGTH_CATEGORY
from .counting import Counts, optimal_bet
from .groups import hand_group

if TYPE_CHECKING:
    from .figures import Figures


def charts(f: Figures, c: Counts, directory: Any) -> list[Any]:
    """PNG charts: the strategy (bet rate by hand group and up-card rank) and the results."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..cards import RANK_NAMES

    written = []
    name = f.rules.name
    if f.optimal is not None and f.table_play is None:  # else: table_chart
        groups = [hand_group(s) for s in range(len(STRENGTH_CATEGORY))]
        labels = list(dict.fromkeys(groups[s] for s in range(len(groups))))
        row_of = np.asarray([labels.index(g) for g in groups])[c.strength]
        bet = optimal_bet(c)
        total = np.zeros((len(labels), 13))
        betting = np.zeros((len(labels), 13))
        np.add.at(total, (row_of, c.up_rank), c.weight)
        np.add.at(betting, (row_of, c.up_rank), np.where(bet, c.weight, 0))
        share = np.divide(betting, total, out=np.full_like(total, np.nan), where=total > 0)
        fig, ax = plt.subplots(figsize=(8, 11))
        image = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(13), RANK_NAMES)
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.set_xlabel("dealer's up-card")
        ax.set_title(f"{name}: share of deals where the best first action is to bet")
        fig.colorbar(image, ax=ax, fraction=0.04)
        fig.tight_layout()
        path = directory / f"strategy-{name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    shown = f.optimal if f.optimal is not None else f.closed_box
    if shown.results:
        results = list(shown.results)
        fig, ax = plt.subplots(figsize=(min(16, max(9, len(results) * 0.35)), 4.5))
        ax.bar([str(r) for r in results], [float(shown.probability(shown.results[r])) for r in results])
        ax.tick_params(axis="x", labelsize=7 if len(results) <= 50 else 5, rotation=90 if len(results) > 25 else 0)
        ax.set_yscale("log")
        ax.set_xlabel("net result of a round (antes)")
        ax.set_ylabel("probability")
        ax.set_title(f"{name}: results of a round, {shown.name} (house edge {float(-shown.ev) * 100:.4f} %)")
        fig.tight_layout()
        path = directory / f"results-{name}.png"
        fig.savefig(path, dpi=110, metadata={"Software": None})
        plt.close(fig)
        written.append(path)
    return written


def table_chart(name: str, labels: list[str], deals: np.ndarray, directory: Any) -> Any:
    """PNG: the most frequent best first action of each hand group and up-card rank, shaded by
    its share of the cell's deals (rules with exchanges or a sixth card, from their table)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Rectangle

    from ..cards import RANK_NAMES

    total = deals.sum(axis=2)
    top = deals.argmax(axis=2)
    share = np.divide(deals.max(axis=2), total, out=np.zeros(total.shape), where=total > 0)
    colours = [plt.get_cmap("tab10")(k) for k in range(len(GROUPS))]
    fig, ax = plt.subplots(figsize=(9, 11))
    ax.imshow(np.where(total > 0, top, np.nan), cmap=ListedColormap(colours), vmin=-0.5,
              vmax=len(GROUPS) - 0.5, aspect="auto", alpha=None)
    ax.imshow(np.zeros_like(share), cmap="Greys", alpha=np.clip(1 - share, 0, 1) * 0.6, aspect="auto", vmin=0, vmax=1)
    ax.set_xticks(range(13), RANK_NAMES)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.set_xlabel("dealer's up-card")
    ax.set_title(f"{name}: most frequent best first action (paler: a smaller share of the cell)")
    ax.legend(handles=[Rectangle((0, 0), 1, 1, color=c) for c in colours], labels=list(GROUPS),
              loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    fig.tight_layout()
    path = directory / f"strategy-{name}.png"
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path
