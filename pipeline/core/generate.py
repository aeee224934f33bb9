"""The generate core's public names, from its focused modules (importable from here as before):

- :mod:`pipeline.core.instances`: the instance built (:func:`build_instance`), checked
  (:func:`check_instance`) and its mentions completed (:func:`complete_mentions`);
- :mod:`pipeline.core.quadruples`: an instance -> its four variants (:func:`make_variant`,
  :func:`quadruple`, :func:`check_offsets`);
- :mod:`pipeline.core.gap_rows`: a GAP row and its Doc -> an instance (:func:`gap_instance`);
- :mod:`pipeline.core.recheck`: the re-check of the variants (:func:`recheck_quadruple`);
- :mod:`pipeline.core.title_periods`: the evaluation text without title periods.

May import: those five modules, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from pipeline.core.instances import (  # noqa: F401 (re-exported)
    REQUIRED_FIELDS, GenerateError, build_instance, check_instance, complete_mentions, completed)
from pipeline.core.quadruples import (  # noqa: F401 (re-exported)
    FLIPS_WORDS, NAME_FORMS, SOURCE_ROLE, Edit, PersonForms, check_offsets, gutenberg_url,
    make_variant, quadruple, word_edits)
from pipeline.core.gap_rows import (  # noqa: F401 (re-exported)
    REJECT_AB_MISSING, REJECT_AB_PERSONS, REJECT_AMBIGUOUS, REJECT_FEWER, REJECT_INCONSISTENT,
    REJECT_MORE, REJECT_PRONOUN, REJECT_SPLIT, REJECT_UNGENDERED, REJECT_UNGENDERED_EXTRA,
    gap_instance, positional_pattern, qualified_gap_instance)
from pipeline.core.recheck import (  # noqa: F401 (re-exported)
    RECHECK_GENDER, RECHECK_NEW_PERSON, RECHECK_NOT_PERSON, RECHECK_REASONS, RECHECK_WORD_KEPT,
    kept_gendered_word, recheck_quadruple, recheck_row)
from pipeline.core.title_periods import (  # noqa: F401 (re-exported)
    strip_title_periods, strip_title_periods_gap, strip_title_periods_row)
from pipeline.vocab import ID_SUFFIX, ROLES, VARIANTS  # noqa: F401 (re-exported)
