"""The terminal front end: the same service, driven from a keyboard or a script.

`terminal.py` holds it (`Terminal`: the hot-seat table and script mode); this
package only names what the entry point (`bot/__main__.py`) and the tests use.
"""

from .terminal import CHANNEL, SCRIPT_START, ScriptClock, Terminal, keyboard, read_lines, user_id

__all__ = ["CHANNEL", "SCRIPT_START", "ScriptClock", "Terminal", "keyboard", "read_lines", "user_id"]
