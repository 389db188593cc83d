"""`boardgames-tui web`: the unchanged app served to browsers, one app per tab.

`server` runs the web server (textual-serve); `app` is what it starts for each tab.
Kept apart so that a tab's app does not import the web server.
"""
