"""Karmaka card abilities: where each one's rule lives, and the dispatch tables joining them.

Rule source: docs/rules/karmaka.md ("Cards", "Conventions for every ability", "Copy abilities").
The rest of the engine calls an ability only through the names this module exports
(`begin_ability`, `answer_prompt`, `prompt_options`, `OPTIONAL_PROMPTS`); importing them from here
makes sure the tables below are filled first.

Where each ability's rule is:

- `abilities_copies.py`: Denial, Embody, Mimic (and how a copy chain stops).
- `abilities_targeted.py`: Peek, Stolen Dreams, Thievery, Swindle, Spite, Longevity, Dwindle,
  Crisis, Panic, Vengeance, Hell's Heart (and naming the target).
- `abilities_self.py`: Transmigrate, Destiny, Another Day, Voyage, Recycle, Salvage, Sowing,
  Jubilee, Roulette.
- `abilities_resolve.py`: what every ability shares: starting it, asking (a `Prompt`), the
  answers a prompt accepts, finishing, the start of the Karmic offer.
- `prompts.py`: the words of a pending decision.

The tables are declared in `abilities_resolve.py`, which uses them but imports no ability module
(those use its helpers); they are filled here, once, when the package is imported.
"""

from __future__ import annotations

from engines.karmaka.abilities_copies import (
    answer_denial,
    answer_embody,
    answer_mimic_source,
)
from engines.karmaka.abilities_resolve import (
    ANSWERS,
    OPTIONAL_PROMPTS,
    SELF_ABILITIES,
    TARGETED,
    answer_prompt,
    begin_ability,
    prompt_options,
)
from engines.karmaka.abilities_self import (
    another_day,
    answer_destiny_keep,
    answer_destiny_return,
    answer_jubilee,
    answer_roulette_draw,
    answer_roulette_ruin,
    answer_ruins_pick,
    answer_sowing,
    answer_transmigrate,
    destiny,
    jubilee,
    recycle,
    roulette,
    salvage,
    sowing,
    transmigrate,
    voyage,
)
from engines.karmaka.abilities_targeted import (
    answer_ruin_of_choice,
    answer_spite_pick,
    answer_swindle_keep,
    answer_swindle_pick,
    answer_target,
    crisis,
    dwindle,
    hells_heart,
    longevity,
    panic,
    peek,
    spite,
    stolen_dreams,
    swindle,
    thievery,
    vengeance,
)

__all__ = ["OPTIONAL_PROMPTS", "answer_prompt", "begin_ability", "prompt_options"]

# ---- dispatch tables -----------------------------------------------------------------------------

SELF_ABILITIES.update(
    {
        "transmigrate": transmigrate,
        "destiny": destiny,
        "another_day": another_day,
        "recycle": recycle,
        "salvage": salvage,
        "sowing": sowing,
        "voyage": voyage,
        "jubilee": jubilee,
        "roulette": roulette,
    }
)

TARGETED.update(
    {
        "peek": peek,
        "stolen_dreams": stolen_dreams,
        "thievery": thievery,
        "swindle": swindle,
        "longevity": longevity,
        "dwindle": dwindle,
        "panic": panic,
        "crisis": crisis,
        "hells_heart": hells_heart,
        "vengeance": vengeance,
        "spite": spite,
    }
)

ANSWERS.update(
    {
        "target": answer_target,
        "mimic_source": answer_mimic_source,
        "denial": answer_denial,
        "embody": answer_embody,
        "transmigrate": answer_transmigrate,
        "destiny_keep": answer_destiny_keep,
        "destiny_return": answer_destiny_return,
        "recycle": answer_ruins_pick,
        "salvage": answer_ruins_pick,
        "sowing": answer_sowing,
        "jubilee": answer_jubilee,
        "dwindle": answer_ruin_of_choice,
        "crisis": answer_ruin_of_choice,
        "roulette_ruin": answer_roulette_ruin,
        "roulette_draw": answer_roulette_draw,
        "swindle_pick": answer_swindle_pick,
        "swindle_keep": answer_swindle_keep,
        "spite_pick": answer_spite_pick,
    }
)
