"""A Python frame line as tracebacks print it (Python's, IPython's in notebooks, pytest's short form),
and IPython's numbered source lines under a frame: what the scanner groups into a traceback and what
recognition skips when it reads the failure's own words."""
from __future__ import annotations

from . import rxcache

# a frame: Python's, and IPython's as notebooks print them ("File /x/y.py:702, in f(...)" from IPython 8,
# "Cell In[7], line 3", and older "/x/y.py in f(...)" / "<ipython-input-3-..> in <module>")
FRAME = rxcache.compile(
    r'^\s*(?:File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>\S+))?'
    r'|File (?P<path>(?:/|[A-Za-z]:\\|~/)[^\n:]*?\.pyx?):(?P<line>\d+)(?:, in (?P<func>[\w.<>]+))?'
    r'|(?P<path>Cell In\s?\[\d*\]),? line (?P<line>\d+)'
    r'|(?P<path>(?:/|[A-Za-z]:\\|~/)\S*?\.pyx?|<ipython-input-[\w-]+>) in (?P<func>[\w.]+|<[\w\s:]+>)(?:\(|\s*$)'
    # pytest's short tracebacks (--tb=short, CI logs): "tests/kernels/test_block_fp8.py:45: in test_w8a8_block_fp8"
    r'|(?P<path>[^\s:"]+\.pyx?):(?P<line>\d+): in (?P<func>[\w.<>]+)\s*$)')
# IPython's numbered source lines under a frame: the failing one ("----> 5 from . import _C", "-> 2215 result = ...")
# and the context lines around it ("    421     if x:")
NUMBERED_SOURCE = rxcache.compile(r"^(?:[ \t]+|-*>[ \t]*)\d+[ \t]")
