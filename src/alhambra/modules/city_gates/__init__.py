"""City gates (Big Box module ``city_gates``): see ``README.md``."""

from __future__ import annotations

from .module import MODULE, CityGateOpened, CityGates, CityGatesState, GateBuild, GatePlace, GateTurn, TakeGate, gate_spots

__all__ = ["MODULE", "CityGateOpened", "CityGates", "CityGatesState", "GateBuild", "GatePlace", "GateTurn", "TakeGate", "gate_spots"]
