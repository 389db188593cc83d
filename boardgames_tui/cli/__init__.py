"""The command line: `boardgames-tui` and its subcommands, which start the front ends."""
