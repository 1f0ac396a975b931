# shellcheck shell=bash
# Shared by scripts/run and scripts/test (sourced, not run): make sure .venv exists and holds
# this checkout installed editable with the extras ALHAMBRA_EXTRAS names (default: dev, which
# scripts/test needs: linters, tests, the research APIs). scripts/run sets it empty: the server
# needs only the package's own dependencies (about a tenth of the download). Sets ROOT and PY.
#
# Needs only Python >= 3.11 with pip and venv. Reinstalls when the package is missing, when
# pyproject.toml changed, when the checkout moved, or when extras are wanted that the venv
# lacks (the stamp records all three; a venv with dev serves scripts/run as it is).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.alhambra-install-stamp"

_alhambra_find_python() {
    local cand
    for cand in "${PYTHON:-}" python3.11 python3 python; do
        [ -n "$cand" ] || continue
        if command -v "$cand" >/dev/null 2>&1 &&
            "$cand" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' >/dev/null 2>&1; then
            command -v "$cand"
            return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [ ! -x "$PY" ]; then
    base_python="$(_alhambra_find_python)"
    echo "setting up $VENV with $base_python ..." >&2
    rm -rf "$VENV"
    "$base_python" -m venv "$VENV"
fi

_alhambra_stamp() {
    # pyproject (+ native core sources) hash + checkout path: a change in either means reinstall
    "$PY" - "$ROOT" <<'PYEOF'
import hashlib, pathlib, sys
root = pathlib.Path(sys.argv[1])
h = hashlib.sha256((root / "pyproject.toml").read_bytes())
# the native core's sources: a change rebuilds the extension (pip builds it in place)
for f in sorted((root / "src/alhambra/native").glob("*.px[di]")) + [root / "setup.py"]:
    if f.exists():
        h.update(f.read_bytes())
print(h.hexdigest(), root)
PYEOF
}

EXTRAS="${ALHAMBRA_EXTRAS-dev}"
want="$(_alhambra_stamp)"
have="$(cat "$STAMP" 2>/dev/null || true)"
have_extras=""
case "$have" in *"|"*) have_extras="${have##*|}"; have="${have%|*}" ;; *) [ -n "$have" ] && have_extras="dev" ;; esac
if [ "$want" != "$have" ] || { [ -n "$EXTRAS" ] && [ "$have_extras" != "$EXTRAS" ]; } ||
    ! "$PY" -c 'import alhambra, typer, rich' >/dev/null 2>&1; then
    if [ -n "$EXTRAS" ]; then spec=".[$EXTRAS]"; else spec="."; fi
    echo "installing alhambra (editable${EXTRAS:+, with the $EXTRAS extras}) into $VENV ..." >&2
    (cd "$ROOT" && "$PY" -m pip install --quiet --disable-pip-version-check -e "$spec") >&2
    # a venv that has dev keeps saying so when scripts/run reinstalls without extras
    [ -z "$EXTRAS" ] && [ "$want" = "$have" ] && EXTRAS="$have_extras"
    printf '%s|%s\n' "$want" "$EXTRAS" >"$STAMP"
fi
