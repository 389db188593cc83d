"""Developer tools (`bench`, `screenshots`): imported only by their commands, never by the app."""
