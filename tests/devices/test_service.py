"""The systemd unit and scripts/install-service: the unit systemd-analyze verifies without a
word, its exposure score, and an install into a temporary root."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts" / "install-service"
ANALYZE = shutil.which("systemd-analyze")
EXPOSURE_LIMIT = 1.5  # measured 0.6 ("SAFE") with systemd 252

needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed "
                                   "(Debian package systemd)")


@pytest.fixture
def installed(tmp_path) -> Path:
    """The unit as scripts/install-service writes it under a temporary root."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    overseer = venv / "bin" / "overseer"
    overseer.write_text("#!/bin/sh\n")
    overseer.chmod(0o755)
    result = subprocess.run([sys.executable, str(INSTALL), "--root", str(tmp_path / "root"),
                             "--venv", str(venv)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    unit = tmp_path / "root" / "etc" / "systemd" / "system" / "overseer.service"
    assert result.stdout.splitlines()[0] == f"wrote {unit}"
    assert "would run: systemctl enable --now overseer.service" in result.stdout
    return unit


def verify(unit: Path) -> subprocess.CompletedProcess:
    assert ANALYZE is not None
    return subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True,
                          timeout=60, cwd=unit.parent)


def test_the_unit_starts_the_gadget_at_boot_as_its_own_user(installed, tmp_path):
    text = installed.read_text()
    for line in ("Type=notify\n", "NotifyAccess=main\n", "WatchdogSec=30\n",  # cli/notify.py
                 "User=overseer", "SupplementaryGroups=dialout i2c gpio",
                 "WorkingDirectory=%S/overseer", "StateDirectory=overseer",
                 "Restart=on-failure", "WantedBy=multi-user.target",
                 f"ExecStart={tmp_path / 'venv'}/bin/overseer gadget\n", "ProtectSystem=strict",
                 "ProtectHome=yes", "NoNewPrivileges=yes", "DevicePolicy=closed",
                 "CapabilityBoundingSet=\n", "SystemCallFilter=@system-service"):
        assert line in text
    assert "@" not in text.replace("@system-service", "").replace("@privileged", "").replace(
        "@resources", "")


@needs_analyze
def test_systemd_analyze_verify_prints_nothing(installed):
    result = verify(installed)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@needs_analyze
def test_verify_would_catch_an_unknown_key(installed):
    installed.write_text(installed.read_text().replace("[Install]", "Bogus=1\n\n[Install]"))
    result = verify(installed)
    assert result.returncode == 0  # why the test asks for no output at all
    assert "Unknown key 'Bogus'" in result.stdout + result.stderr


@needs_analyze
def test_the_unit_exposure_is_low(installed):
    assert ANALYZE is not None
    result = subprocess.run([ANALYZE, "security", "--offline=yes", str(installed)],
                            capture_output=True, text=True, timeout=60, cwd=installed.parent)
    if "--offline" in result.stderr and result.returncode != 0:
        pytest.skip("this systemd-analyze has no --offline")
    last = [line for line in result.stdout.splitlines() if "Overall exposure level" in line]
    assert last, result.stdout + result.stderr
    score = float(last[0].split(":")[1].split()[0])
    assert score < EXPOSURE_LIMIT


def test_a_dry_run_writes_nothing_and_says_what_it_would_do(tmp_path):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "overseer").write_text("#!/bin/sh\n")
    (venv / "bin" / "overseer").chmod(0o755)
    result = subprocess.run([sys.executable, str(INSTALL), "--dry-run", "--venv", str(venv),
                             "--user", "gadget", "--command", "play"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("would write /etc/systemd/system/overseer.service:\n")
    assert f"ExecStart={venv}/bin/overseer play\n" in result.stdout
    assert "User=gadget" in result.stdout
    assert "would run: systemctl daemon-reload" in result.stdout


def test_a_missing_venv_is_a_plain_message(tmp_path):
    result = subprocess.run([sys.executable, str(INSTALL), "--root", str(tmp_path), "--venv",
                             str(tmp_path / "none")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == (f"install-service: {tmp_path / 'none'}/bin/overseer is missing: run "
                             "scripts/run --help once to make the virtual environment\n")
    assert not (tmp_path / "etc").exists()


@pytest.fixture
def installed_web(tmp_path) -> Path:
    """The unit with the web page (scripts/install-service --web)."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    (venv / "bin" / "overseer").write_text("#!/bin/sh\n")
    (venv / "bin" / "overseer").chmod(0o755)
    result = subprocess.run([sys.executable, str(INSTALL), "--root", str(tmp_path / "root-web"),
                             "--venv", str(venv), "--web"], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return tmp_path / "root-web" / "etc" / "systemd" / "system" / "overseer.service"


def test_the_web_unit_reaches_the_lan_only_and_keeps_the_rest(installed, installed_web, tmp_path):
    plain, web = ([line for line in unit.read_text().splitlines() if not line.startswith("#")]
                  for unit in (installed, installed_web))
    changed = {line for line in web if line not in plain}
    assert changed == {
        f"ExecStart={tmp_path / 'venv'}/bin/overseer gadget --web", "PrivateNetwork=no",
        "IPAddressAllow=localhost 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7",
        "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK"}
    gone = {line for line in plain if line not in web}
    assert gone == {f"ExecStart={tmp_path / 'venv'}/bin/overseer gadget", "PrivateNetwork=yes",
                    "RestrictAddressFamilies=AF_UNIX"}
    assert "IPAddressDeny=any" in web  # every other address stays denied


@needs_analyze
def test_systemd_analyze_verify_prints_nothing_for_the_web_unit(installed_web):
    result = verify(installed_web)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_the_install_compiles_the_bytecode_and_the_unit_keeps_it_in_use(installed, tmp_path):
    result = subprocess.run([sys.executable, str(INSTALL), "--root", str(tmp_path / "root"),
                             "--venv", str(tmp_path / "venv"), "--dry-run"],
                            capture_output=True, text=True, timeout=60)
    runs = [line for line in result.stdout.splitlines() if line.startswith("would run: ")]
    assert runs[0] == (f"would run: {tmp_path / 'venv'}/bin/python -m compileall -q -j 0 "
                       f"{ROOT / 'host'} {tmp_path / 'venv'}/lib")  # before the service starts
    assert "UnsetEnvironment=PYTHONPYCACHEPREFIX PYTHONDONTWRITEBYTECODE\n" in \
        installed.read_text()
