"""Where the page listens: the addresses the config names, else the box's own LAN addresses
(private IPv4 and IPv6 unique-local addresses of its interfaces, from ``ip -j addr``), never
a public one: a config that names a public address is refused."""

from __future__ import annotations

import ipaddress
import json
import subprocess
from collections.abc import Iterable, Sequence


class AddressError(ValueError):
    """An address the page may not listen on, or none found."""


LAN = tuple(ipaddress.ip_network(n) for n in (
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"))  # the unit's allow list too
# (scripts/install-service): not Python's wider is_private (documentation and benchmark nets)


def lan(addresses: Iterable[str]) -> list[str]:
    """The LAN ones of ``addresses``: private IPv4 (RFC 1918) and IPv6 unique-local."""
    out = []
    for text in addresses:
        address = ipaddress.ip_address(text)
        if any(address.version == net.version and address in net for net in LAN):
            out.append(text)
    return out


def interface_addresses() -> list[str]:
    """Every address of the box's interfaces (``ip -j addr``; none where ``ip`` is missing)."""
    try:
        shown = subprocess.run(["ip", "-j", "addr"], capture_output=True, text=True,
                               timeout=5, check=True).stdout
        links = json.loads(shown)
    except (OSError, subprocess.SubprocessError, ValueError):
        return []
    return [info["local"] for link in links for info in link.get("addr_info", [])
            if "local" in info]


def check(listen: Sequence[str]) -> list[str]:
    """The addresses to listen on: ``listen`` (each private or loopback), or with none given
    the box's LAN addresses. ``AddressError`` says why not."""
    if not listen:
        found = lan(interface_addresses())
        if not found:
            raise AddressError("the box has no LAN address yet (no private IPv4 or IPv6 "
                               "unique-local address on its interfaces); name one in the "
                               "config's [web] listen")
        return found
    out = []
    for text in listen:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise AddressError(f"web.listen: {text!r} is not an IP address") from None
        if address.is_unspecified or not (address.is_private or address.is_loopback):
            raise AddressError(f"web.listen: {text} is not a LAN address; the page listens "
                               "only on private or loopback addresses (say 192.168.1.20)")
        out.append(text)
    return out
