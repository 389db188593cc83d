"""What every front end shares, with no Textual and no Rich: the `Session` a front end drives
(`play`), the sources of a seat's moves (a local match, a shared table), the autosave, the
crash log and the notification sender."""
