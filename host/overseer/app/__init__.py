"""The gadget: ports (Glass, Buttons, Dice, Tags, Leds), the inbox, the pure controller."""
