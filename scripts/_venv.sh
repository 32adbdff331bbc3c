# Sourced by scripts/run and scripts/test: make .venv and install the project into it
# (editable, with the test extras) whenever pyproject.toml changed since the last install.
set -eu
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="${OVERSEER_VENV:-$root/.venv}"
py="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
stamp="$venv/.overseer-installed"
want=$(sha256sum "$root/pyproject.toml" | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  "$venv/bin/python" -m pip install -q --upgrade pip >/dev/null
  "$venv/bin/python" -m pip install -q -e "$root[test]"
  echo "$want" > "$stamp"
fi
export PATH="$venv/bin:$PATH"
cd "$root"
