"""Time words per language (`lang/timewords/<code>.py`): see workspace_memory.lang."""
