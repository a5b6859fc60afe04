"""The domain: a Retain fact and an entity as the engine knows them (model), the one entity
resolver (entities), which newer fact replaces which (supersession), and claim matching (textmatch).
Pure: no I/O; index/ and reflect/ both build on it, and neither imports the other."""
