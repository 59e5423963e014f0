"""Every number and list of the rules, in one place (RULES §1–§7).

Values marked **[house]** in RULES live here so that a player holding the
printed rule book can correct them in one file. Decisions this project made
where RULES is silent are marked ``# decision:`` and listed in README "Rules questions decided here".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

RULES_VERSION = "2026.11-2"  # RULES, "Rules versions"

# RULES §1.1 — leaf types, letters and names; order is the canonical order.
LEAF_TYPES: tuple[str, ...] = ("M", "G", "C", "O", "Z", "K")
LEAF_NAMES: dict[str, str] = {
    "M": "Maple",
    "G": "Ginkgo",
    "C": "Cherry",
    "O": "Oak",
    "Z": "Zelkova",
    "K": "Katsura",
}

# RULES §1.1 and §1.2 [house] — the 14 cards of one leaf type:
# (value, card letter, acorn in left corner, acorn in right corner).
CARD_PATTERN: tuple[tuple[int, str, bool, bool], ...] = (
    (0, "a", True, True),
    (0, "b", True, False),
    (0, "c", False, True),
    (0, "d", True, False),
    (0, "e", False, False),
    (1, "a", True, False),
    (1, "b", False, True),
    (1, "c", False, False),
    (1, "d", False, True),
    (2, "a", True, False),
    (2, "b", False, True),
    (2, "c", False, False),
    (3, "a", False, True),
    (3, "b", False, False),
)
MAX_VALUE = 3  # RULES §4.2: placing a 3 closes the pile.

# RULES §2 — setup.
MIN_SEATS = 2
MAX_SEATS = 4
HAND_SIZE_AT_SETUP = 6  # RULES §2.5
DISPLAY_SIZE = 4  # RULES §2.5 and §5.2 [house]
ACORNS_AT_SETUP = 2  # RULES §2.6 [house]


def types_in_play_count(seats: int) -> int:
    """RULES §2.1: players + 2 leaf types are in play."""
    return seats + 2


def torii_supply(seats: int) -> int:
    """RULES §1.3: the torii supply holds players + 2 tokens."""
    return seats + 2


def objectives_revealed(seats: int) -> int:
    """RULES §1.4: players + 2 objective tokens are revealed."""
    return seats + 2


def draft_offer_size(seats: int) -> int:
    """RULES §2.1 [house]: each draft round reveals players + 1 landscapes."""
    return seats + 1


# RULES §4 — actions.
REVEAL_COUNT = 4  # RULES §4.1
REVEAL_COST = 1  # RULES §4.1
OBJECTIVE_COST = 3  # RULES §4.3
EXCHANGE_DISCARD = 2  # RULES §4.4
EXCHANGE_GAIN = 1  # RULES §4.4
LANDSCAPE_COST = 1  # RULES §1.5 and §4.5: every landscape's cost unless HouseRules says otherwise
SAME_TYPE_MAX = 2  # RULES §4.2
MIXED_MIN = 2  # RULES §4.2
ACORN_PAIR_GAIN = 2  # RULES §4.2
HAND_LIMIT = 8  # RULES §5.1

# RULES §7 — scoring.
OBJECTIVE_OWNER_POINTS = 10
OBJECTIVE_OTHER_POINTS = 3

# RULES §1.4 [house list] — objective ids and names, in the order of the table.
# "type-X" expands to one token per leaf type.
OBJECTIVE_NAMES: dict[str, str] = {
    "zeros": "Fallen Seeds",
    **{f"type-{t}": f"Grove of {LEAF_NAMES[t]}" for t in LEAF_TYPES},
    "top-sum": "Autumn Canopy",
    "ones": "Young Leaves",
    "twos": "Ripe Leaves",
    "torii": "Shrine Path",
    "piles": "Wide Garden",
    "longest": "Tall Heap",
    "acorns": "Squirrel's Store",
}
OBJECTIVE_TEXT: dict[str, str] = {
    "zeros": "most 0s in your piles",
    **{f"type-{t}": f"most {LEAF_NAMES[t]} cards in your piles" for t in LEAF_TYPES},
    "top-sum": "highest sum of your top cards",
    "ones": "most 1s in your piles",
    "twos": "most 2s in your piles",
    "torii": "most closed piles",
    "piles": "most piles (open or closed)",
    "longest": "most cards in one pile",
    "acorns": "most acorns held",
}

# RULES §1.5 [house] — landscapes: id -> (part, name, power text).
SUNRISE, MIDDAY, DUSK = "sunrise", "midday", "dusk"
PARTS: tuple[str, ...] = (SUNRISE, MIDDAY, DUSK)
LANDSCAPES: dict[str, tuple[str, str, str]] = {
    "spring": (SUNRISE, "Mountain Spring", "gain 2 acorns"),
    "bamboo": (SUNRISE, "Bamboo Grove", "draw 2 cards from the deck"),
    "lantern": (SUNRISE, "Stone Lantern", "take 1 card of your choice from the display into your hand"),
    "koi": (SUNRISE, "Koi Pond", "discard up to 3 cards from hand, then draw that many from the deck"),
    "terrace": (SUNRISE, "Rice Terrace", "take 1 card of your choice from the discard pile into your hand"),
    "bell": (SUNRISE, "Temple Bell", "swap 1 card from your hand with 1 card in the display"),
    "bridge": (MIDDAY, "Red Bridge", "a same-type play this turn may place up to 3 cards"),
    "stones": (MIDDAY, "Stepping Stones", "one card you play this turn may be up to 2 higher than the card it covers"),
    "pagoda": (MIDDAY, "Pagoda", "activating an objective this turn costs 2 acorns"),
    "teahouse": (MIDDAY, "Tea House",
                 "collecting this turn takes two columns instead of one (one, if only one exists)"),
    "waterfall": (MIDDAY, "Waterfall", "collecting this turn, the reveal is free"),
    "moss": (MIDDAY, "Moss Garden",
             "this turn any play (either mode) checks acorn pairs, and each pair gives 3 acorns"),
    "pier": (DUSK, "Sunset Pier", "gain 1 acorn per closed pile you have"),
    "crane": (DUSK, "Crane Island", "play 1 card from hand onto one of your existing piles (normal placement rules)"),
    "pine": (DUSK, "Pine Ridge", "gain 1 acorn per pile of yours whose top card is a 0"),
    "fox": (DUSK, "Fox Shrine", "discard any number of cards from hand; gain 1 acorn per 2 discarded"),
    "moongate": (DUSK, "Moon Gate",
                 "activate an objective now, paying its normal cost (in addition to your main action)"),
    "festival": (DUSK, "Autumn Festival", "every other player who has an acorn gives you 1"),
}
STARTER_PANORAMA: tuple[str, str, str] = ("spring", "waterfall", "pier")  # RULES §1.5

# Numbers inside the landscape powers (RULES §1.5 [house]).
SPRING_GAIN = 2
BAMBOO_DRAW = 2
KOI_MAX = 3
BRIDGE_SAME_TYPE_MAX = 3
STONES_STEP = 2
PAGODA_OBJECTIVE_COST = 2
TEAHOUSE_COLUMNS = 2
MOSS_PAIR_GAIN = 3
FOX_DISCARDS_PER_ACORN = 2
FESTIVAL_GIFT = 1

# decision: Bamboo Grove and Koi Pond draw what the deck still holds when it
# holds fewer ("fewer if the deck holds fewer", as RULES §4.1 says of the
# reveal); Koi Pond's discard is the player's choice and is not capped by the
# deck. With an empty deck both powers are refused (they would draw nothing).
# decision: with the Tea House the collect takes TEAHOUSE_COLUMNS different
# columns (fewer only when fewer exist): "takes two columns instead of one".

# decision: a landscape is one free action; RULES §3 allows each free action
# "at most once" per turn, so a seat uses at most one landscape per turn.
LANDSCAPES_PER_TURN = 1


# ------------------------------------------------------------ rules versions
# A game is played, and replayed, under the rules version written in its
# GameCreated event: the [house] values that changed between versions live in
# a HouseRules of that version, and the engine reads them from the game state
# (``GameState.rules``), never from the constants above, so that a save of an
# older version replays to the same final score (docs/BALANCE.md).


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The [house] values of one rules version that may differ between versions.

    ``landscape_costs``: ``(landscape id, acorns)`` for every landscape that
    does not cost ``LANDSCAPE_COST`` (RULES §4.5); the other fields are the
    amounts inside the landscape powers (RULES §1.5: acorns gained, cards
    drawn, the Stepping Stones' step, the Tea House's columns, …). The engine
    reads all of them from the game's rules (``GameState.rules``)."""

    version: str
    landscape_costs: tuple[tuple[str, int], ...] = ()
    # The numbers inside the landscape powers (RULES §1.5 [house]): every
    # version so far keeps the values above; a version that changes one says
    # so here, and games of older versions keep theirs.
    spring_gain: int = SPRING_GAIN
    bamboo_draw: int = BAMBOO_DRAW
    koi_max: int = KOI_MAX
    bridge_same_type_max: int = BRIDGE_SAME_TYPE_MAX
    stones_step: int = STONES_STEP
    pagoda_objective_cost: int = PAGODA_OBJECTIVE_COST
    teahouse_columns: int = TEAHOUSE_COLUMNS
    moss_pair_gain: int = MOSS_PAIR_GAIN
    fox_discards_per_acorn: int = FOX_DISCARDS_PER_ACORN
    festival_gift: int = FESTIVAL_GIFT

    def landscape_cost(self, landscape: str) -> int:
        """Acorns paid to use ``landscape`` under these rules (RULES §4.5);
        0 for a free landscape."""
        for lid, cost in self.landscape_costs:
            if lid == landscape:
                return cost
        return LANDSCAPE_COST

    @property
    def cheapest_landscape(self) -> int:
        """The fewest acorns any landscape costs under these rules: a seat
        with fewer can use none (RULES §4.5)."""
        return min([LANDSCAPE_COST, *(cost for _, cost in self.landscape_costs)])


def landscape_cost_text(rules: HouseRules, landscapes: Iterable[str]) -> str:
    """What using each of ``landscapes`` costs under ``rules``, in words, for
    the UI (RULES §4.5): ``"1 acorn"`` when all cost the same (``"2 acorns"``
    for the Tea House alone), else e.g. ``"1 acorn; Tea House 2 acorns"``
    (the usual cost first, if any of them costs it, then each other one by
    name)."""
    lids = list(landscapes)
    costs = {rules.landscape_cost(lid) for lid in lids}
    if len(costs) <= 1:
        return acorns_text(costs.pop() if costs else LANDSCAPE_COST)
    other = [f"{LANDSCAPES[lid][1]} {acorns_text(rules.landscape_cost(lid))}"
             for lid in lids if rules.landscape_cost(lid) != LANDSCAPE_COST]
    usual = [acorns_text(LANDSCAPE_COST)] if LANDSCAPE_COST in costs else []
    return "; ".join([*usual, *other])


def acorns_text(n: int) -> str:
    """``"1 acorn"``, ``"2 acorns"``; ``"free"`` for 0 (a free landscape)."""
    if n == 0:
        return "free"
    return f"{n} acorn" if n == 1 else f"{n} acorns"


#: Every rules version ever published, oldest first (RULES, "Rules versions"),
#: then the candidates measured but not adopted.
RULES_BY_VERSION: dict[str, HouseRules] = {
    "2026.11-1": HouseRules("2026.11-1"),
    # RULES §1.5 [house]: Tea House costs 2 acorns (docs/BALANCE.md).
    "2026.11-2": HouseRules("2026.11-2", landscape_costs=(("teahouse", 2),)),
    # A candidate measured in balance mode and NOT adopted (docs/BALANCE.md,
    # "A candidate not adopted"): Tea House 3 acorns, Red Bridge free. Not a
    # published version: a tournament may play it (--rules), the app never
    # creates a game under it (it creates every game under RULES_VERSION).
    "candidate-tea3-bridge0": HouseRules("candidate-tea3-bridge0",
                                         landscape_costs=(("teahouse", 3), ("bridge", 0))),
}
CURRENT_RULES = RULES_BY_VERSION[RULES_VERSION]


def rules_for(version: str) -> HouseRules:
    """The house values of rules version ``version``.

    Raises ``ValueError`` for a version this momiji does not know (a newer
    save is refused before this, by ``session.versions.is_newer_rules``)."""
    rules = RULES_BY_VERSION.get(version)
    if rules is None:
        raise ValueError(f"unknown rules version {version!r} (known: {', '.join(RULES_BY_VERSION)})")
    return rules
