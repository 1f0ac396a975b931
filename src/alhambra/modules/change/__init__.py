"""Change (Big Box module ``change``): see ``README.md``."""

from __future__ import annotations

from .module import (
    CERTIFICATES_ID,
    MODULE,
    MODULE_ID,
    Change,
    ChangeGiven,
    ChangeState,
    Components,
    change_slice,
    check_coins,
    components,
    currency_of_token,
    money_rate,
    token_of,
)

__all__ = [
    "CERTIFICATES_ID",
    "MODULE",
    "MODULE_ID",
    "Change",
    "ChangeGiven",
    "ChangeState",
    "Components",
    "change_slice",
    "check_coins",
    "components",
    "currency_of_token",
    "money_rate",
    "token_of",
]
