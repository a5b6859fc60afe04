"""Question and note words per language (`lang/words/<code>.py`): see workspace_memory.lang."""
