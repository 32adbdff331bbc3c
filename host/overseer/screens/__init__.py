"""What the 128x64 OLED shows: screens as values, drawn with Pillow in bitmap faces, shown on a
luma device or packed as frames for the Pico."""
