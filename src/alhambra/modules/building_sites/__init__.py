"""Building Sites (Big Box module ``building_sites``): see ``README.md``."""

from __future__ import annotations

from .module import (
    COMPLETE_PREFIX,
    MODULE,
    MODULE_ID,
    SETUP_PREFIX,
    BuildingSites,
    Site,
    SiteChoice,
    SiteCompleted,
    SiteKeep,
    SiteRevealed,
    SitesState,
    SiteTileKept,
    SiteTilesDrawn,
    check_sites,
    components,
    is_site,
    setup_price,
    site_location,
    site_tile_ids,
    sites_slice,
)

__all__ = [
    "COMPLETE_PREFIX",
    "MODULE",
    "MODULE_ID",
    "SETUP_PREFIX",
    "BuildingSites",
    "Site",
    "SiteChoice",
    "SiteCompleted",
    "SiteKeep",
    "SiteRevealed",
    "SiteTileKept",
    "SiteTilesDrawn",
    "SitesState",
    "check_sites",
    "components",
    "is_site",
    "setup_price",
    "site_location",
    "site_tile_ids",
    "sites_slice",
]
