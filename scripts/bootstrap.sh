# shellcheck shell=bash
# Shared by scripts/run and scripts/test (sourced, not run): make sure .venv exists and holds
# this checkout installed editable with its dev extras. Sets ROOT and PY.
#
# Needs only Python >= 3.11 with pip and venv. Reinstalls when the package is missing, when
# pyproject.toml changed, or when the checkout moved (the stamp records both).

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

want="$(_alhambra_stamp)"
have="$(cat "$STAMP" 2>/dev/null || true)"
if [ "$want" != "$have" ] || ! "$PY" -c 'import alhambra, typer, rich' >/dev/null 2>&1; then
    echo "installing alhambra (editable, with dev extras) into $VENV ..." >&2
    (cd "$ROOT" && "$PY" -m pip install --quiet --disable-pip-version-check -e '.[dev]') >&2
    printf '%s\n' "$want" >"$STAMP"
fi
