# Runs at power-up before MicroPython starts its USB (main.py runs next): the board comes up with
# the link's own USB serial (cdc.py) in place of the REPL, unless BACK/UNDO is held.
import cdc
import maintenance

if not maintenance.held():
    cdc.start()
