# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The native core: the base game (2-6 players, the 2-player neutral player) in C arrays.

A second implementation of the rules of :mod:`alhambra.engine` for speed; the Python engine
stays the authority and :mod:`alhambra.native.check` proves they agree move by move. Each
include file is read beside its Python twins: ``state.pxi`` (state.py), ``events.pxi`` (the
events of a step, events.py), ``rng.pxi`` (the seeded
chance of engine/setup.py), ``city.pxi`` (city.py), ``money.pxi`` (takes and payments:
engine/generate.py, engine/payments.py), ``flow.pxi`` (engine/supply.py, engine/flow.py,
engine/scoring.py: drawing, refills, the end of a turn, scoring, the end of the game),
``rules.pxi`` (engine/generate.py, engine/redesign.py, engine/perform.py, engine/setup.py:
legal actions, applying them, setup), ``bots.pxi`` (bots/greedy.py: the evaluation), ``sample.pxi`` (bots/tracker.py: the
sampler's hidden draws; bots/mcts.py: the search's rewards), ``value.pxi`` (bots/value_net.py: the
value network's features and forward pass). Use it through :mod:`alhambra.native`, not directly.
"""

from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.string cimport memcpy, memset
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLongLong
from cpython.ref cimport Py_INCREF

import random as _random

include "state.pxi"
include "events.pxi"
include "rng.pxi"
include "city.pxi"
include "money.pxi"
include "flow.pxi"
include "bots.pxi"
include "rules.pxi"
include "sample.pxi"
include "value.pxi"
