"""What the 128x64 OLED shows: drawn once with luma.core's canvas, sent anywhere."""
