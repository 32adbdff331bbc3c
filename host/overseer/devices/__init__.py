"""Devices: the Pico link (real over USB serial, or a virtual Pico over a pty)."""
