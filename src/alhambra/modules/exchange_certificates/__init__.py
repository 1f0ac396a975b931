"""Exchange Certificates (Big Box module ``exchange_certificates``): see ``README.md``."""

from __future__ import annotations

from .module import (
    CHANGE_ID,
    MODULE,
    MODULE_ID,
    NO_CREDIT,
    CertificateDecline,
    CertificatesState,
    CertificateStore,
    Components,
    CreditDeclined,
    CreditStored,
    ExchangeCertificates,
    StoreChoice,
    certificates_slice,
    check_tokens,
    components,
    money_rate,
)

__all__ = [
    "CHANGE_ID",
    "MODULE",
    "MODULE_ID",
    "NO_CREDIT",
    "CertificateDecline",
    "CertificateStore",
    "CertificatesState",
    "Components",
    "CreditDeclined",
    "CreditStored",
    "ExchangeCertificates",
    "StoreChoice",
    "certificates_slice",
    "check_tokens",
    "components",
    "money_rate",
]
