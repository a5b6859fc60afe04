"""Words of change and stance per language (`lang/stance/<code>.py`): see workspace_memory.lang."""
