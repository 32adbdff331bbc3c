# Sourced by scripts/run and scripts/test: make .venv and install the project into it
# (editable, with the test extras) whenever pyproject.toml changed since the last install.
set -eu
# nfcpy (the NFC reader's driver) needs libusb-1.0 from Debian: install it when it is missing
# (as root, e.g. on CI), else say how.
if ! { /sbin/ldconfig -p 2>/dev/null || ldconfig -p 2>/dev/null; } | grep -q 'libusb-1\.0\.so\.0'; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    { apt-get install -y -q libusb-1.0-0 || { apt-get update -q && apt-get install -y -q libusb-1.0-0; }; } >/dev/null \
      || echo "overseer: could not install libusb-1.0-0; the NFC reader will not work" >&2
  else
    echo "overseer: libusb-1.0 is missing (the NFC reader needs it): sudo apt-get install libusb-1.0-0" >&2
  fi
fi
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
