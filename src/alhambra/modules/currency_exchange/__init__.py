"""Currency exchange cards (Big Box module ``currency_exchange``): see ``README.md``."""

from __future__ import annotations

from .module import EXCHANGE_PAIRS, MODULE, CurrencyExchange, exchange_code

__all__ = ["EXCHANGE_PAIRS", "MODULE", "CurrencyExchange", "exchange_code"]
