# Sourced by scripts/run and scripts/test: make .venv and install the project into it (editable)
# whenever pyproject.toml changed since the last install. scripts/run installs what playing
# needs; scripts/test sets OVERSEER_EXTRAS=test and adds the test tools (and the firmware's type
# stubs, firmware/.stubs). One stamp per kind of install: .overseer-play and .overseer-test hold
# the pyproject.toml they were made from.
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
extras="${OVERSEER_EXTRAS:-}"
want=$(sha256sum "$root/pyproject.toml" | cut -d' ' -f1)

fresh() {  # fresh KIND: that install was made from this pyproject.toml
  [ -f "$venv/.overseer-$1" ] && [ "$(cat "$venv/.overseer-$1")" = "$want" ]
}

if [ -n "$extras" ]; then
  kind=$extras spec="$root[$extras]" what="Overseer and its $extras tools"
else
  kind=play spec="$root" what="Overseer (what playing needs)"
fi
if ! fresh "$kind" && ! { [ "$kind" = play ] && fresh test; }; then
  echo "overseer: installing $what into $venv; the first time takes a minute or two..." >&2
  if [ ! -x "$venv/bin/python" ]; then
    "$py" -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -qq --disable-pip-version-check -e "$spec"
  echo "$want" > "$venv/.overseer-$kind"
  if [ "$kind" = test ]; then
    echo "$want" > "$venv/.overseer-play"  # the test install holds everything playing needs
  fi
  echo "overseer: installed; starting" >&2
fi
# The test kind: the MicroPython rp2 stubs the firmware is type-checked against
# (firmware/stubs.txt), in the git-ignored firmware/.stubs: not in the venv, nor in typings/
# (pyright's default stub folder, which the host's check would take): they shadow the standard
# library. Installed again whenever that file changed.
if [ "$kind" = test ]; then
  stubs=$(sha256sum "$root/firmware/stubs.txt" | cut -d' ' -f1)
  if [ "$(cat "$root/firmware/.stubs/.overseer-stubs" 2>/dev/null)" != "$stubs" ]; then
    rm -rf "$root/firmware/.stubs"
    "$venv/bin/python" -m pip install -qq --disable-pip-version-check \
      --target "$root/firmware/.stubs" -r "$root/firmware/stubs.txt"
    echo "$stubs" > "$root/firmware/.stubs/.overseer-stubs"
  fi
fi
# The sources' bytecode, kept up to date even where PYTHONDONTWRITEBYTECODE is set (an editable
# install would otherwise compile every module at every start): only what changed is compiled.
"$venv/bin/python" -m compileall -q -j 0 "$root/host" >/dev/null || true
export PATH="$venv/bin:$PATH"
cd "$root"
