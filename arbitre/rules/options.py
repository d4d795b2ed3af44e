"""Named rule options: every disputed rule the DATC lists is a choice here.

The defaults are the DATC v3.2 preferences.  Options are given by name in the
JSON interface (``"options": {"convoy_paradox": "all_hold"}``) and are checked
against :data:`OPTION_CHOICES`.  :data:`OPTIONS` describes each one (its DATC
paragraph, its group, what every value does) for the documentation, the API
(``GET /api/options``) and the game-creation page; :data:`PRESETS` name whole
rule sets (``"options": {"preset": "1982"}``), which single options may still
override.  Each option's values are a ``StrEnum``: a member *is* its text, so
JSON and comparisons with plain strings are unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum


class ConvoyParadox(StrEnum):
    """DATC 4.A.2: what breaks a convoy paradox."""

    SZYKMAN = "szykman"
    ALL_HOLD = "all_hold"
    V1982 = "1982"
    DPTG = "dptg"


class MultiRouteConvoy(StrEnum):
    """DATC 4.A.1: a convoy with several routes fails when every route (v3) or any route (1971) is cut."""

    ALL_ROUTES = "all_routes"
    ANY_ROUTE = "any_route"


class AdjacentConvoy(StrEnum):
    """DATC 4.A.3: when an army moving to an adjacent province goes by convoy.

    ``v3``: 'via convoy' or a convoy order of its own power; ``explicit``: only
    'via convoy' (DPTG); ``any``: any matching convoy order (1971, kidnapping allowed).
    """

    V3 = "v3"
    EXPLICIT = "explicit"
    ANY = "any"
    V2_FALLBACK = "v2_fallback"


class RetreatToStandoff(StrEnum):
    """DATC 6.H.6 (rule, not a chapter-4 issue): may a dislodged unit retreat to a province left empty by a standoff?

    ``forbidden``: never (every rulebook); ``after_convoy``: yes when a convoyed army dislodged it (MILA 1.1.2's engine).
    """

    FORBIDDEN = "forbidden"
    AFTER_CONVOY = "after_convoy"


class SelfDislodgeSupport(StrEnum):
    """DATC 6.D.12 (rule, not a chapter-4 issue): may a power's support help dislodge its own unit?

    ``never``: no (every rulebook since 1971); ``via_convoy``: yes when the attack is an army
    ordered ``VIA`` convoy with a route of ordered convoys (MILA 1.1.2's engine).
    """

    NEVER = "never"
    VIA_CONVOY = "via_convoy"


class MissingCoast(StrEnum):
    """DATC 4.B.1: a fleet move to a two-coast province without a coast when only one coast is reachable."""

    ALLOW_UNIQUE = "allow_unique"
    ILLEGAL = "illegal"


class CivilDisorder(StrEnum):
    """DATC 4.D.8: civil disorder removals by distance to owned centres (2023) or to home centres (2000)."""

    V2023 = "2023"
    V2000 = "2000"


class RetreatToConvoyOrigin(StrEnum):
    """DATC 4.A.5: a unit dislodged by a convoyed army may retreat to the army's starting province."""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class OrderSets(StrEnum):
    """DATC 4.D.1: several order sets of one power, in a known order."""

    LATEST = "latest"
    COMBINED = "combined"


class UnorderedOrderSets(StrEnum):
    """DATC 4.D.2: several order sets of one power, with no telling which came last."""

    COMBINED = "combined"
    ALL_HOLD = "all_hold"


class MultipleOrders(StrEnum):
    """DATC 4.D.3: several different legal orders to one unit: all illegal (hold), first, or last counts."""

    ALL_ILLEGAL = "all_illegal"
    FIRST = "first"
    LAST = "last"


class SupportCoast(StrEnum):
    """DATC 4.B.4: a support naming the coast of the supported move must match it, or the coast is ignored."""

    MUST_MATCH = "must_match"
    IGNORED = "ignored"


class WrongUnitType(StrEnum):
    """DATC 4.C.2: an order naming the wrong unit type (A for a fleet) is read for the real unit, or illegal."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class TooManyBuilds(StrEnum):
    """DATC 4.D.4: more builds than allowed: the first ones count, all of them are illegal, or the last count."""

    FIRST = "first"
    ALL_ILLEGAL = "all_illegal"
    LAST = "last"


class ConvoyedAttackOrigin(StrEnum):
    """DATC 4.A.4: a convoyed attack comes from the army's start, or from the last sea (Brannan)."""

    START = "start"
    BRANNAN = "brannan"


class ConvoyPath(StrEnum):
    """DATC 4.A.6: a convoy path written in a move (``A YOR - NTH - BEL``)."""

    IGNORED = "ignored"
    ALLOWED = "allowed"
    REQUIRED = "required"


class DislodgedBounce(StrEnum):
    """DATC 4.A.7: may a dislodged unit bounce a third unit in its attacker's province?"""

    OUTSIDE_HEAD_TO_HEAD = "outside_head_to_head"
    NEVER = "never"


class ImpossibleCoast(StrEnum):
    """DATC 4.B.3: a move to a coast the fleet cannot reach."""

    ILLEGAL = "illegal"
    IGNORED = "ignored"


class UnitCoast(StrEnum):
    """DATC 4.B.5: the wrong coast written for the ordered fleet."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class IrrelevantCoast(StrEnum):
    """DATC 4.B.6: a coast on an army move, or a coast the province does not have."""

    IGNORED = "ignored"
    ILLEGAL = "illegal"


class MissingUnitType(StrEnum):
    """DATC 4.C.1: an order without the unit type."""

    VALID = "valid"
    INVALID = "invalid"
    UNLESS_DESIGNATED = "unless_designated"


class MissingNationality(StrEnum):
    """DATC 4.C.5: a support or convoy of a foreign unit that does not name the unit's nationality."""

    VALID = "valid"
    INVALID = "invalid"
    UNLESS_DESIGNATED = "unless_designated"


class WrongNationality(StrEnum):
    """DATC 4.C.6: a support or convoy that names the wrong nationality for the unit."""

    VALID = "valid"
    INVALID = "invalid"
    UNLESS_DESIGNATED = "unless_designated"


class BuildMissingType(StrEnum):
    """DATC 4.C.3: a build without the unit type."""

    COAST_DECIDES = "coast_decides"
    FAILS = "fails"
    ARMY_INLAND = "army_inland"


class BuildFleetInland(StrEnum):
    """DATC 4.C.4: a fleet build in an inland province."""

    FAILS = "fails"
    ARMY = "army"


class SameProvinceBuilds(StrEnum):
    """DATC 4.D.5: several builds in one province."""

    FIRST = "first"
    ALL_FAIL = "all_fail"
    LAST = "last"


class TooManyDisbands(StrEnum):
    """DATC 4.D.6: more disbands than owed."""

    FIRST = "first"
    CIVIL_DISORDER = "civil_disorder"
    LAST = "last"


class WaiveBuilds(StrEnum):
    """DATC 4.D.7: may a build be waived?"""

    ALLOWED = "allowed"
    FORBIDDEN = "forbidden"


class CivilDisorderSupport(StrEnum):
    """DATC 4.D.9: hold support to a unit of a power in civil disorder."""

    GIVEN = "given"
    FAILS = "fails"


class IllegalOrders(StrEnum):
    """DATC 4.E.1: an illegal order is ignored, or an illegal move still denies hold support."""

    IGNORED = "ignored"
    DENY_SUPPORT = "deny_support"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One disputed rule: its name, DATC paragraph, group, and values (the first is the DATC preference)."""

    name: str
    datc: str
    group: str
    title: str
    values: tuple[tuple[str, str], ...]
    """(value, what it does), the DATC preference first."""

    @property
    def default(self) -> str:
        """The DATC v3.2 preference."""
        return self.values[0][0]


GROUPS: tuple[tuple[str, str], ...] = (
    ("convoys", "Convoys (DATC 4.A)"),
    ("coasts", "Coasts (DATC 4.B)"),
    ("designation", "Unit designation and nationality (DATC 4.C)"),
    ("orders", "Too many and too few orders (DATC 4.D)"),
    ("misc", "Miscellaneous (DATC 4.E)"),
)
"""Option groups in display order: (key, title)."""

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "multi_route_convoy",
        "4.A.1",
        "convoys",
        "Multi-route convoy disruption",
        (
            ("all_routes", "a convoy fails only when every route is disrupted (1982 and later)"),
            ("any_route", "a convoy fails as soon as one route is disrupted (1971)"),
        ),
    ),
    OptionSpec(
        "convoy_paradox",
        "4.A.2",
        "convoys",
        "Convoy disruption paradoxes",
        (
            ("szykman", "Szykman: the convoying fleets of the paradox hold; the armies fail without effect"),
            ("all_hold", "All Hold: every move of the paradox fails"),
            (
                "1982",
                "1982 rulebook: a convoyed army does not cut a support of an action in a sea holding "
                "a convoying fleet (always, paradox or not)",
            ),
            ("dptg", "DPTG: with two resolutions, the one where all convoys of the paradox fail; otherwise All Hold"),
        ),
    ),
    OptionSpec(
        "adjacent_convoy",
        "4.A.3",
        "convoys",
        "Convoying to an adjacent province",
        (
            ("v3", "by convoy when ordered 'via convoy' or a fleet of the army's power convoys it (2023, no fallback)"),
            ("explicit", "by convoy only when ordered 'via convoy' (DPTG)"),
            ("any", "any matching convoy order is used, even a foreign one (kidnapping allowed)"),
            (
                "v2_fallback",
                "as v3, but an army with no route of ordered convoys to a province it borders moves over land "
                "(DATC v2's fallback; MILA's engine)",
            ),
        ),
    ),
    OptionSpec(
        "convoyed_attack_origin",
        "4.A.4",
        "convoys",
        "Where a convoyed attack comes from",
        (
            ("start", "from the army's starting province: it cannot cut a support against that province"),
            (
                "brannan",
                "Brannan's rule: from the last sea of the convoy: it cuts that support, and meets a unit "
                "moving into that sea head to head",
            ),
        ),
    ),
    OptionSpec(
        "retreat_to_convoy_origin",
        "4.A.5",
        "convoys",
        "Retreat when dislodged by a convoy",
        (
            ("allowed", "a unit dislodged by a convoyed army may retreat to the army's starting province (2023)"),
            ("forbidden", "it may not"),
        ),
    ),
    OptionSpec(
        "convoy_path",
        "4.A.6",
        "convoys",
        "Convoy path written in a move",
        (
            ("ignored", "a path in a move (A YOR - NTH - BEL) is ignored: the army moves as if none were written"),
            (
                "allowed",
                "a path is allowed but not required: when written, the army goes only through those seas, "
                "each holding a fleet that convoys it",
            ),
            ("required", "a convoy needs a written path: an army whose move names none is not convoyed"),
        ),
    ),
    OptionSpec(
        "dislodged_bounce",
        "4.A.7",
        "convoys",
        "A dislodged unit bouncing a third unit",
        (
            (
                "outside_head_to_head",
                "a dislodged unit still bounces units in its attacker's province, unless it lost a head-to-head battle",
            ),
            ("never", "a dislodged unit never has an effect on the province its attacker came from"),
        ),
    ),
    OptionSpec(
        "retreat_to_standoff",
        "6.H.6",
        "convoys",
        "Retreat to a province left empty by a standoff",
        (
            ("forbidden", "never allowed (DATC 6.H.6)"),
            ("after_convoy", "allowed to a unit dislodged by a convoyed army (MILA's engine)"),
        ),
    ),
    OptionSpec(
        "self_dislodge_support",
        "6.D.12",
        "convoys",
        "A power's support for an attack on its own unit",
        (
            ("never", "never counts toward dislodging the power's own unit (DATC 6.D.12)"),
            (
                "via_convoy",
                "counts when the attack is an army ordered 'via convoy' with a route of ordered convoys "
                "(MILA's engine)",
            ),
        ),
    ),
    OptionSpec(
        "missing_coast",
        "4.B.2",
        "coasts",
        "Move without a coast when one coast is possible",
        (("allow_unique", "the move goes to the only possible coast"), ("illegal", "the order is illegal")),
    ),
    OptionSpec(
        "impossible_coast",
        "4.B.3",
        "coasts",
        "Move to an impossible coast",
        (
            ("illegal", "the order is illegal"),
            ("ignored", "the coast is ignored and the move tries the possible coast"),
        ),
    ),
    OptionSpec(
        "support_coast",
        "4.B.4",
        "coasts",
        "Coast named in a support",
        (
            ("must_match", "a coast named in a support must match the supported move"),
            ("ignored", "the coast in a support is ignored"),
        ),
    ),
    OptionSpec(
        "unit_coast",
        "4.B.5",
        "coasts",
        "Wrong coast of the ordered unit",
        (("ignored", "the coast written for the ordered unit is ignored"), ("illegal", "the order is illegal")),
    ),
    OptionSpec(
        "irrelevant_coast",
        "4.B.6",
        "coasts",
        "Unknown or irrelevant coasts",
        (
            ("ignored", "a coast on an army move or a coast the province does not have is ignored"),
            ("illegal", "the order is illegal"),
        ),
    ),
    OptionSpec(
        "missing_unit_type",
        "4.C.1",
        "designation",
        "Missing unit type",
        (
            ("valid", "the order is read for the unit that is there"),
            ("invalid", "the order is illegal (the unit holds and can be supported)"),
            ("unless_designated", "valid, unless another order for the unit names its type"),
        ),
    ),
    OptionSpec(
        "wrong_unit_type",
        "4.C.2",
        "designation",
        "Wrong unit type",
        (("ignored", "the order is read for the unit that is there"), ("illegal", "the order is illegal")),
    ),
    OptionSpec(
        "build_missing_type",
        "4.C.3",
        "designation",
        "Build without a unit type",
        (
            ("coast_decides", "an army inland, a fleet when a coast is named, else the build fails"),
            ("fails", "the build always fails"),
            ("army_inland", "an army inland, else the build fails"),
        ),
    ),
    OptionSpec(
        "build_fleet_inland",
        "4.C.4",
        "designation",
        "Building a fleet inland",
        (("fails", "the build fails"), ("army", "an army is built instead")),
    ),
    OptionSpec(
        "missing_nationality",
        "4.C.5",
        "designation",
        "Support or convoy without the foreign unit's nationality",
        (
            ("valid", "the order is valid (A PAR S A MUN - BUR supports the German army)"),
            ("invalid", "the order is illegal: a foreign unit must be named with its nationality"),
            ("unless_designated", "valid, unless another order for the unit names the right nationality"),
        ),
    ),
    OptionSpec(
        "wrong_nationality",
        "4.C.6",
        "designation",
        "Support or convoy naming the wrong nationality",
        (
            ("valid", "the order is valid: the nationality is ignored"),
            ("invalid", "the order is illegal"),
            ("unless_designated", "valid, unless another order for the unit names the right nationality"),
        ),
    ),
    OptionSpec(
        "order_sets",
        "4.D.1",
        "orders",
        "Several order sets, the latest known",
        (
            (
                "latest",
                "only the latest set counts (choice c: a program cannot tell when 'it is clear' that earlier "
                "sets still count)",
            ),
            (
                "combined",
                "all sets are combined into one; a unit ordered twice follows 'Several orders to one unit' (4.D.3)",
            ),
        ),
    ),
    OptionSpec(
        "unordered_order_sets",
        "4.D.2",
        "orders",
        "Several order sets, none known to be the latest",
        (
            (
                "combined",
                "all sets are combined into one; a unit ordered twice follows 'Several orders to one unit' (4.D.3)",
            ),
            ("all_hold", "all units of the power hold (and it builds and disbands nothing)"),
        ),
    ),
    OptionSpec(
        "multiple_orders",
        "4.D.3",
        "orders",
        "Several orders to one unit",
        (
            ("all_illegal", "all are illegal: the unit holds"),
            ("first", "the first counts"),
            ("last", "the last counts"),
        ),
    ),
    OptionSpec(
        "too_many_builds",
        "4.D.4",
        "orders",
        "Too many builds",
        (
            ("first", "the first legal builds count"),
            ("all_illegal", "every build is illegal"),
            ("last", "the last legal builds count"),
        ),
    ),
    OptionSpec(
        "same_province_builds",
        "4.D.5",
        "orders",
        "Several builds in one province",
        (("first", "the first counts"), ("all_fail", "all of them fail"), ("last", "the last counts")),
    ),
    OptionSpec(
        "too_many_disbands",
        "4.D.6",
        "orders",
        "Too many disbands",
        (
            ("first", "the first legal disbands count"),
            ("civil_disorder", "all are ignored and the civil disorder rules choose"),
            ("last", "the last legal disbands count"),
        ),
    ),
    OptionSpec(
        "waive_builds",
        "4.D.7",
        "orders",
        "Waiving builds",
        (("allowed", "a build may be waived (2000, 2023)"), ("forbidden", "a WAIVE order is illegal")),
    ),
    OptionSpec(
        "civil_disorder",
        "4.D.8",
        "orders",
        "Removing units in civil disorder",
        (
            ("2023", "distance to the nearest owned centre, armies and fleets over land and sea"),
            ("2000", "distance to the home centres (1971, 1982, 2000)"),
        ),
    ),
    OptionSpec(
        "civil_disorder_support",
        "4.D.9",
        "orders",
        "Hold support to a power in civil disorder",
        (
            ("given", "a unit of a power that gave no orders can receive hold support"),
            ("fails", "a hold support to such a unit fails"),
        ),
    ),
    OptionSpec(
        "illegal_orders",
        "4.E.1",
        "misc",
        "Illegal orders",
        (
            ("ignored", "an illegal order is ignored: the unit holds and can receive hold support"),
            ("deny_support", "an illegal move still counts as a move: the unit cannot receive hold support"),
        ),
    ),
)
"""Every option, grouped by DATC section."""

OPTION_ENUMS: dict[str, type[StrEnum]] = {
    "multi_route_convoy": MultiRouteConvoy,
    "convoy_paradox": ConvoyParadox,
    "adjacent_convoy": AdjacentConvoy,
    "convoyed_attack_origin": ConvoyedAttackOrigin,
    "retreat_to_convoy_origin": RetreatToConvoyOrigin,
    "convoy_path": ConvoyPath,
    "dislodged_bounce": DislodgedBounce,
    "retreat_to_standoff": RetreatToStandoff,
    "self_dislodge_support": SelfDislodgeSupport,
    "missing_coast": MissingCoast,
    "impossible_coast": ImpossibleCoast,
    "support_coast": SupportCoast,
    "unit_coast": UnitCoast,
    "irrelevant_coast": IrrelevantCoast,
    "missing_unit_type": MissingUnitType,
    "wrong_unit_type": WrongUnitType,
    "build_missing_type": BuildMissingType,
    "build_fleet_inland": BuildFleetInland,
    "missing_nationality": MissingNationality,
    "wrong_nationality": WrongNationality,
    "order_sets": OrderSets,
    "unordered_order_sets": UnorderedOrderSets,
    "multiple_orders": MultipleOrders,
    "too_many_builds": TooManyBuilds,
    "same_province_builds": SameProvinceBuilds,
    "too_many_disbands": TooManyDisbands,
    "waive_builds": WaiveBuilds,
    "civil_disorder": CivilDisorder,
    "civil_disorder_support": CivilDisorderSupport,
    "illegal_orders": IllegalOrders,
}
"""Option name → the enum of its values (in the order of :data:`OPTIONS`, the DATC preference first)."""

OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    name: tuple(str(member) for member in enum) for name, enum in OPTION_ENUMS.items()
}
"""Option name → its allowed values as text, the default first."""

OPTION_BY_NAME: dict[str, OptionSpec] = {o.name: o for o in OPTIONS}


MILA_VALUES: dict[str, str] = {
    "adjacent_convoy": "v2_fallback",
    "support_coast": "ignored",
    "civil_disorder": "2000",
    "self_dislodge_support": "via_convoy",
    "retreat_to_standoff": "after_convoy",
}
"""The options on which MILA 1.1.2's engine rules otherwise than the DATC preferences (docs/mila.md has the cases)."""


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set: the options it sets (every other option keeps the DATC preference)."""

    name: str
    title: str
    values: Mapping[str, str]
    sources: str


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("datc", "DATC v3.2 preferences", {}, "DATC v3.2, chapter 4 preferences"),
        Preset("2023", "2023 rulebook", {}, "2023 rulebook as quoted in DATC v3.0, 4.A.1-4.A.5, 4.D.7, 4.D.8"),
        Preset(
            "2000",
            "2000 rulebook",
            {"civil_disorder": "2000"},
            "2000 rulebook as quoted in DATC v3.0, 4.A.1-4.A.3, 4.D.7, 4.D.8",
        ),
        Preset(
            "1982",
            "Avalon Hill 1982",
            {"convoy_paradox": "1982", "civil_disorder": "2000"},
            "1982 rulebook as quoted in DATC v3.0, 4.A.1-4.A.3, 4.D.8",
        ),
        Preset(
            "mila",
            "MILA's engine (the diplomacy package 1.1.2)",
            MILA_VALUES,
            "MILA's diplomacy 1.1.2 engine and its DATC suite (diplomacy/tests/test_datc.py); see docs/mila.md",
        ),
    )
}
"""Named rule sets (``"preset"`` in the options); see docs/options.md for what each rulebook says."""

PRESET_OPTION = "preset"


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The chosen option for each disputed rule (defaults: DATC v3.2 preferences)."""

    multi_route_convoy: MultiRouteConvoy = MultiRouteConvoy.ALL_ROUTES
    convoy_paradox: ConvoyParadox = ConvoyParadox.SZYKMAN
    adjacent_convoy: AdjacentConvoy = AdjacentConvoy.V3
    convoyed_attack_origin: ConvoyedAttackOrigin = ConvoyedAttackOrigin.START
    retreat_to_convoy_origin: RetreatToConvoyOrigin = RetreatToConvoyOrigin.ALLOWED
    convoy_path: ConvoyPath = ConvoyPath.IGNORED
    dislodged_bounce: DislodgedBounce = DislodgedBounce.OUTSIDE_HEAD_TO_HEAD
    self_dislodge_support: SelfDislodgeSupport = SelfDislodgeSupport.NEVER
    retreat_to_standoff: RetreatToStandoff = RetreatToStandoff.FORBIDDEN
    missing_coast: MissingCoast = MissingCoast.ALLOW_UNIQUE
    impossible_coast: ImpossibleCoast = ImpossibleCoast.ILLEGAL
    support_coast: SupportCoast = SupportCoast.MUST_MATCH
    unit_coast: UnitCoast = UnitCoast.IGNORED
    irrelevant_coast: IrrelevantCoast = IrrelevantCoast.IGNORED
    missing_unit_type: MissingUnitType = MissingUnitType.VALID
    wrong_unit_type: WrongUnitType = WrongUnitType.IGNORED
    missing_nationality: MissingNationality = MissingNationality.VALID
    wrong_nationality: WrongNationality = WrongNationality.VALID
    build_missing_type: BuildMissingType = BuildMissingType.COAST_DECIDES
    build_fleet_inland: BuildFleetInland = BuildFleetInland.FAILS
    order_sets: OrderSets = OrderSets.LATEST
    unordered_order_sets: UnorderedOrderSets = UnorderedOrderSets.COMBINED
    multiple_orders: MultipleOrders = MultipleOrders.ALL_ILLEGAL
    too_many_builds: TooManyBuilds = TooManyBuilds.FIRST
    same_province_builds: SameProvinceBuilds = SameProvinceBuilds.FIRST
    too_many_disbands: TooManyDisbands = TooManyDisbands.FIRST
    waive_builds: WaiveBuilds = WaiveBuilds.ALLOWED
    civil_disorder: CivilDisorder = CivilDisorder.V2023
    civil_disorder_support: CivilDisorderSupport = CivilDisorderSupport.GIVEN
    illegal_orders: IllegalOrders = IllegalOrders.IGNORED

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> RuleOptions:
        """Build options from a name → choice mapping; unknown names are left to the caller.

        A ``preset`` sets its options first; options named alongside it override them.
        """
        known = {f.name for f in fields(cls)}
        chosen: dict[str, StrEnum] = {}
        preset = values.get(PRESET_OPTION)
        if preset is not None:
            if preset not in PRESETS:
                raise ValueError(f"option 'preset' must be one of {', '.join(PRESETS)}, not {preset!r}")
            chosen.update({k: OPTION_ENUMS[k](v) for k, v in PRESETS[str(preset)].values.items()})
        for name, value in values.items():
            if name not in known:
                continue
            if value not in OPTION_CHOICES[name]:
                raise ValueError(f"option {name!r} must be one of {', '.join(OPTION_CHOICES[name])}, not {value!r}")
            chosen[name] = OPTION_ENUMS[name](value)
        return replace(cls(), **chosen)  # type: ignore[arg-type]

    def changed(self) -> dict[str, str]:
        """The options that differ from the DATC preferences."""
        return {
            f.name: str(getattr(self, f.name))
            for f in fields(self)
            if getattr(self, f.name) != OPTION_BY_NAME[f.name].default
        }


def options_catalogue() -> dict[str, object]:
    """Every option and preset as plain data (``GET /api/options``, the creation page)."""
    return {
        "groups": [
            {
                "key": key,
                "title": title,
                "options": [
                    {
                        "name": o.name,
                        "datc": o.datc,
                        "title": o.title,
                        "default": o.default,
                        "values": [
                            {"value": v, "description": d, "datc_preference": v == o.default} for v, d in o.values
                        ],
                    }
                    for o in OPTIONS
                    if o.group == key
                ],
            }
            for key, title in GROUPS
        ],
        "presets": [
            {"name": p.name, "title": p.title, "options": dict(p.values), "sources": p.sources}
            for p in PRESETS.values()
        ],
    }
